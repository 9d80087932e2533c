/** The proof of work before a send: challenges issued, solved as the page solves them, checked and spent, against dynalite. */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { proofOfWorkLifetimeSeconds, proofOfWorkMaxCounter } from '../../../core/api/proof-of-work';
import { proofOfWork, type ProofOfWork } from '../../../lambdas/limits/proof-of-work';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

let emulators: HandlerStack;
let proofs: ProofOfWork;

beforeAll(async () => {
  emulators = await startHandlerStack();
  proofs = proofOfWork('the-deployment-secret', emulators.dynamoDb, emulators.stack.limitCountersTableName);
});
afterAll(() => emulators?.stop());

/** What the page sends: the challenge it fetched and the counter it found, as base64 JSON. */
async function solvedHeader(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

test('a challenge hides a counter of at most the measured bound, and expires after its lifetime', async () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const challenge = await proofs.issue(now);
  const solution = await solveChallenge({ challenge, deriveKey });

  expect(solution!.counter).toBeLessThan(proofOfWorkMaxCounter);
  expect(challenge.parameters.expiresAt).toBe(now.getTime() / 1000 + proofOfWorkLifetimeSeconds);
  expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
});

test('accepts a solved challenge once, and records it until the challenge expires', async () => {
  const challenge = await proofs.issue();
  const header = await solvedHeader(challenge);

  expect(await proofs.check(header)).toBe('accepted');
  const { Item } = await emulators.dynamoDb.send(
    new GetCommand({
      TableName: emulators.stack.limitCountersTableName,
      Key: { id: `proof#${challenge.signature}` },
    }),
  );
  expect(Item?.expires_at).toBe(challenge.parameters.expiresAt);
});

test('refuses the same solution a second time: a replay', async () => {
  const header = await solvedHeader(await proofs.issue());

  expect(await proofs.check(header)).toBe('accepted');
  expect(await proofs.check(header)).toBe('replayed');
});

test('refuses a request with no solution', async () => {
  expect(await proofs.check(undefined)).toBe('missing');
  expect(await proofs.check('  ')).toBe('missing');
});

test('refuses a header that is not a solved challenge', async () => {
  expect(await proofs.check('not base64 json')).toBe('malformed');
  expect(await proofs.check(Buffer.from('{"challenge":{}}').toString('base64'))).toBe('malformed');
});

test('refuses a guessed key (the key is the proof: only hashing finds it), and records nothing for it', async () => {
  const challenge = await proofs.issue();
  const solution = await solveChallenge({ challenge, deriveKey });
  const wrong = { ...solution!, derivedKey: `${challenge.parameters.keyPrefix}${'0'.repeat(32)}` };
  const header = Buffer.from(JSON.stringify({ challenge, solution: wrong })).toString('base64');

  expect(await proofs.check(header)).toBe('invalid');
  // The right answer still works: the wrong one spent nothing.
  expect(await proofs.check(await solvedHeader(challenge))).toBe('accepted');
});

test('refuses a challenge whose parameters were changed (an easier prefix, a later expiry)', async () => {
  const challenge = await proofs.issue();
  const easier = { ...challenge, parameters: { ...challenge.parameters, keyPrefix: '0', keyLength: 32 } };
  const laterExpiry = {
    ...challenge,
    parameters: { ...challenge.parameters, expiresAt: challenge.parameters.expiresAt! + 3600 },
  };

  expect(await proofs.check(await solvedHeader(easier))).toBe('invalid');
  expect(await proofs.check(await solvedHeader(laterExpiry))).toBe('invalid');
});

test('refuses a challenge another deployment signed', async () => {
  const elsewhere = proofOfWork('another-secret', emulators.dynamoDb, emulators.stack.limitCountersTableName);

  expect(await proofs.check(await solvedHeader(await elsewhere.issue()))).toBe('invalid');
});

test('refuses a challenge solved after it expired', async () => {
  const issuedLongAgo = await proofs.issue(new Date(Date.now() - (proofOfWorkLifetimeSeconds + 60) * 1000));

  expect(await proofs.check(await solvedHeader(issuedLongAgo))).toBe('expired');
});
