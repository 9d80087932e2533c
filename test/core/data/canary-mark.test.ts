import {
  canaryMailbox,
  canaryMarkKeyFrom,
  isCanaryMailbox,
  isValidCanaryMark,
  signCanaryMark,
} from '../../../core/data/canary-mark';

const key = canaryMarkKeyFrom('the deployment secret');
const email = canaryMailbox('20261128t2300');
const at = new Date('2026-11-28T23:00:00Z');

test('a mark signed with the key verifies for its mailbox within ten minutes', () => {
  const mark = signCanaryMark(key, email, at);

  expect(isValidCanaryMark(key, mark, email, new Date(at.getTime() + 9 * 60 * 1000))).toBe(true);
});

test('a mark older than ten minutes, or from the future by as much, does not verify', () => {
  const mark = signCanaryMark(key, email, at);

  expect(isValidCanaryMark(key, mark, email, new Date(at.getTime() + 11 * 60 * 1000))).toBe(false);
  expect(isValidCanaryMark(key, mark, email, new Date(at.getTime() - 11 * 60 * 1000))).toBe(false);
});

test('a mark under another secret, for another mailbox or with its time changed does not verify', () => {
  const mark = signCanaryMark(key, email, at);
  const [seconds, signature] = mark.split('.');

  expect(isValidCanaryMark(canaryMarkKeyFrom('another secret'), mark, email, at)).toBe(false);
  expect(isValidCanaryMark(key, mark, canaryMailbox('another-run'), at)).toBe(false);
  expect(isValidCanaryMark(key, `${Number(seconds) + 1}.${signature}`, email, at)).toBe(false);
  expect(isValidCanaryMark(key, undefined, email, at)).toBe(false);
});

test("only the simulator's success address can carry a mark, however it is signed", () => {
  const reader = 'ada@example.com';

  expect(isValidCanaryMark(key, signCanaryMark(key, reader, at), reader, at)).toBe(false);
  expect(isCanaryMailbox('bounce+x@simulator.amazonses.com')).toBe(false);
  expect(isCanaryMailbox(email)).toBe(true);
});

test('a run name that would make another address is refused', () => {
  expect(() => canaryMailbox('x@example.com,')).toThrow(/not a canary run/);
});
