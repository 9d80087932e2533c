/**
 * GET /api/cheat-sheet-challenge through the real handler: with the proof of work on, a fresh
 * challenge this deployment's check accepts once solved, never cached; off, nothing to solve.
 * Every reply is held to docs/openapi.yaml. No emulator: issuing a challenge reads no table.
 */

import { solveChallenge, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { keysOf } from '../../../lambdas/limits/proof-of-work-challenge';
import { challengeRoute, getEvent, postEvent, replyJson, withMethod } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

const counterKey = 'a-test-run-key-of-the-clients-counters';
const savedEnvironment = { ...process.env };
let challengeHandler: Handler;

beforeAll(async () => {
  Object.assign(process.env, { CLIENT_ADDRESS_SOURCE: 'source-ip', CLIENT_ADDRESS_KEY: counterKey });
  const module = (await import('../../../lambdas/cheat-sheet-challenge/handler')) as { handler: Handler };
  challengeHandler = documented(module.handler);
});
afterAll(() => {
  process.env = savedEnvironment;
});

const switchedTo = (setting: 'on' | 'off') => {
  process.env.CHEAT_SHEET_CHALLENGE = setting;
};

test('with the proof of work on, it issues a challenge that this deployment accepts once solved', async () => {
  switchedTo('on');

  const reply = await challengeHandler(getEvent(challengeRoute));

  expect(reply.statusCode).toBe(200);
  expect(reply.headers?.['Cache-Control']).toBe('no-store');
  const { required, challenge } = replyJson(reply) as { required: boolean; challenge: Challenge };
  expect(required).toBe(true);
  const solution = await solveChallenge({ challenge, deriveKey });
  const keys = keysOf(counterKey);
  const verdict = await verifySolution({
    challenge,
    solution: solution!,
    deriveKey,
    hmacSignatureSecret: keys.challenge,
    hmacKeySignatureSecret: keys.key,
  });
  expect(verdict.verified).toBe(true);
});

test('each request gets a challenge of its own', async () => {
  switchedTo('on');

  const first = replyJson(await challengeHandler(getEvent(challengeRoute))) as { challenge: Challenge };
  const second = replyJson(await challengeHandler(getEvent(challengeRoute))) as { challenge: Challenge };

  expect(second.challenge.parameters.nonce).not.toBe(first.challenge.parameters.nonce);
});

test('with the proof of work off, it answers that nothing needs solving', async () => {
  switchedTo('off');

  const reply = await challengeHandler(getEvent(challengeRoute));

  expect(reply.statusCode).toBe(200);
  expect(replyJson(reply)).toEqual({ required: false });
});

test('another method is answered 405 naming GET', async () => {
  switchedTo('on');

  const reply = await challengeHandler(withMethod(postEvent(challengeRoute, {}), 'POST'));

  expect(reply.statusCode).toBe(405);
  expect(reply.headers?.Allow).toBe('GET');
  expect(replyJson(reply).code).toBe('method_not_allowed');
});

test('without its configuration it answers 500 misconfigured', async () => {
  switchedTo('on');
  delete process.env.CLIENT_ADDRESS_SOURCE;

  const reply = await challengeHandler(getEvent(challengeRoute));

  process.env.CLIENT_ADDRESS_SOURCE = 'source-ip';
  expect(reply.statusCode).toBe(500);
  expect(replyJson(reply).code).toBe('misconfigured');
});
