/**
 * The send route with CHEAT_SHEET_CHALLENGE=on, through the real handler against the emulators: a
 * send without the page's solved challenge, with a forged one or with one already used is refused
 * 403 `proof_of_work_refused` and mails nothing; a solved one sends. The form route (no script)
 * is not asked for one.
 */

import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { proofOfWork, proofOfWorkSecretOf } from '../../../lambdas/limits/proof-of-work';
import { readSendCheatSheetConfig } from '../../../lambdas/runtime/config';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { formEvent, postEvent, replyJson, sendRoute } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

let emulators: HandlerStack;
let send: Handler;
let submitForm: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack({ challenge: 'on' });
  send = documented(((await import('../../../lambdas/send-cheat-sheet/handler')) as { handler: Handler }).handler);
  submitForm = documented(((await import('../../../lambdas/submit-form/handler')) as { handler: Handler }).handler);
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Proof ${++visitorNumber}`, email: `ada.proof.${visitorNumber}@example.com` });

/** What the page does: a challenge from this deployment, solved, as the header's base64 JSON. */
async function solvedProof(): Promise<string> {
  const config = readSendCheatSheetConfig();
  const secret = await proofOfWorkSecretOf(config.clientAddress, () => Promise.reject(new Error('no secret here')));
  const challenge = await proofOfWork(secret, emulators.dynamoDb, config.limitCountersTableName).issue();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const withProof = (proof: string) => ({ headers: { 'x-cheat-sheet-proof': proof } });

test('a send without a solved challenge is refused 403 proof_of_work_refused, and nothing is mailed', async () => {
  const visitor = newVisitor();

  const reply = await send(postEvent(sendRoute, visitor));

  expect(reply.statusCode).toBe(403);
  expect(replyJson(reply)).toEqual({
    success: false,
    code: 'proof_of_work_refused',
    error: "This request lacks the form's proof of work: please send the form again from the page.",
  });
  expect(await emulators.emails(visitor.email)).toHaveLength(0);
});

test('a send with a solved challenge mails the cheat sheet', async () => {
  const visitor = newVisitor();

  const reply = await send(postEvent(sendRoute, visitor, withProof(await solvedProof())));

  expect(reply.statusCode).toBe(200);
  expect(await emulators.emails(visitor.email)).toHaveLength(1);
});

test('the same solution sent again is refused as used, and mails nothing more', async () => {
  const proof = await solvedProof();
  const first = newVisitor();
  const second = newVisitor();

  expect((await send(postEvent(sendRoute, first, withProof(proof)))).statusCode).toBe(200);
  const replay = await send(postEvent(sendRoute, second, withProof(proof)));

  expect(replay.statusCode).toBe(403);
  expect(replyJson(replay).error).toBe("The form's proof of work was already used: please send the form again.");
  expect(await emulators.emails(second.email)).toHaveLength(0);
});

test('a forged solution is refused', async () => {
  const visitor = newVisitor();
  const forged = Buffer.from(
    JSON.stringify({
      challenge: {
        parameters: {
          algorithm: 'SHA-256',
          nonce: '00',
          salt: '00',
          cost: 1,
          keyLength: 32,
          keyPrefix: '00',
          expiresAt: 4e9,
        },
        signature: '0'.repeat(64),
      },
      solution: { counter: 1, derivedKey: '00'.repeat(32) },
    }),
  ).toString('base64');

  const reply = await send(postEvent(sendRoute, visitor, withProof(forged)));

  expect(reply.statusCode).toBe(403);
  expect(replyJson(reply).code).toBe('proof_of_work_refused');
  expect(await emulators.emails(visitor.email)).toHaveLength(0);
});

test('the form without script is not asked for one: it sends under its caps alone', async () => {
  const visitor = newVisitor();

  const reply = await submitForm(formEvent({ ...visitor, hasBook: 'on' }));

  expect(reply.statusCode).toBe(303);
  expect(await emulators.emails(visitor.email)).toHaveLength(1);
});
