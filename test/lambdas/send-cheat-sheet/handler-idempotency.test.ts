/**
 * The send route's `Idempotency-Key`, through the real handler, Powertools and the SDK against
 * the emulators: one key and one body send one e-mail, however often and however at once they
 * arrive; another body with that key is refused; a failure that proves nothing was sent may be
 * tried again under the same key.
 */

import { createHash, randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { idempotencyTableName } from '../../../core/data/tables';
import { parseCheatSheetRequest } from '../../../core/api/request-schema';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

let emulators: HandlerStack;
let send: Handler;
let save: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack({ emailFaultInjection: true });
  send = documented(((await import('../../../lambdas/send-cheat-sheet/handler')) as { handler: Handler }).handler);
  save = documented(((await import('../../../lambdas/save-request/handler')) as { handler: Handler }).handler);
});
afterAll(() => emulators?.stop());
afterEach(() => emulators.stack.setEmailFault(null));

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Keyed ${++visitorNumber}`, email: `ada.keyed.${visitorNumber}@example.com` });
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

describe('send-cheat-sheet handler with an Idempotency-Key', () => {
  test('two posts in turn with one key and one body send one e-mail, and the second replays the first reply', async () => {
    const visitor = newVisitor();
    const key = randomUUID();

    const first = await send(postEvent(sendRoute, visitor, withKey(key)));
    const second = await send(postEvent(sendRoute, visitor, withKey(key)));

    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    expect(await emulators.items(visitor.email)).toHaveLength(1);
    const quota = (await emulators.addressDailyCapItems()).filter((item) => Object.keys(item.claims ?? {}).length > 0);
    expect(quota.filter((item) => item.recent_sends.length > 1)).toEqual([]);
  });

  test('five posts at once with one key and one body send one e-mail; the others replay it or get 409', async () => {
    const visitor = newVisitor();
    const key = randomUUID();

    const replies = await Promise.all(
      Array.from({ length: 5 }, () => send(postEvent(sendRoute, visitor, withKey(key)))),
    );

    const statuses = replies.map((reply) => reply.statusCode);
    expect(statuses).toContain(200);
    for (const status of statuses) expect([200, 409]).toContain(status);
    for (const reply of replies.filter((candidate) => candidate.statusCode === 409)) {
      expect(replyJson(reply)).toEqual(expect.objectContaining({ success: false, code: 'idempotency_key_in_use' }));
    }
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test('the same key with another body gets 422 and sends nothing more', async () => {
    const visitor = newVisitor();
    const key = randomUUID();
    expect((await send(postEvent(sendRoute, visitor, withKey(key)))).statusCode).toBe(200);

    const other = { name: visitor.name, email: `other.${visitor.email}` };
    const reply = await send(postEvent(sendRoute, other, withKey(key)));

    expect(reply.statusCode).toBe(422);
    expect(replyJson(reply)).toEqual({
      success: false,
      error: 'This Idempotency-Key was already used for a different request: please send a new key with new details.',
      code: 'idempotency_key_reused',
    });
    expect(await emulators.emails(other.email)).toEqual([]);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test('a failure that proves nothing was sent is not kept: the same key sends once SES is back', async () => {
    const visitor = newVisitor();
    const key = randomUUID();
    emulators.stack.setEmailFault('internal-error');
    expect((await send(postEvent(sendRoute, visitor, withKey(key)))).statusCode).toBe(503);
    emulators.stack.setEmailFault(null);

    const retry = await send(postEvent(sendRoute, visitor, withKey(key)));

    expect(retry.statusCode).toBe(200);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test('without the header, two posts are two requests and send two e-mails, as before', async () => {
    const visitor = newVisitor();

    await send(postEvent(sendRoute, visitor));
    await send(postEvent(sendRoute, visitor));

    expect(await emulators.emails(visitor.email)).toHaveLength(2);
  });

  test('a key belongs to its route: the page sends one key on both calls, and each call does its work once', async () => {
    const visitor = newVisitor();
    const key = randomUUID();

    const saved = await save(postEvent(saveRoute, visitor, withKey(key)));
    const sent = await send(postEvent(sendRoute, visitor, withKey(key)));
    const savedAgain = await save(postEvent(saveRoute, visitor, withKey(key)));
    const sentAgain = await send(postEvent(sendRoute, visitor, withKey(key)));

    expect([saved.statusCode, sent.statusCode, savedAgain.statusCode, sentAgain.statusCode]).toEqual([
      201, 200, 201, 200,
    ]);
    expect(savedAgain.body).toBe(saved.body);
    expect(await emulators.items(visitor.email)).toEqual([
      expect.objectContaining({ id: replyJson(saved).id, cheat_sheet_sent: true }),
    ]);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test('a header that is not a usable key gets 400 and sends nothing', async () => {
    const visitor = newVisitor();

    const reply = await send(postEvent(sendRoute, visitor, withKey('x'.repeat(256))));

    expect(reply.statusCode).toBe(400);
    expect(replyJson(reply)).toEqual(expect.objectContaining({ code: 'invalid_request' }));
    expect(await emulators.emails(visitor.email)).toEqual([]);
  });

  test("the body a repeat must match is kept as an HMAC under the deployment's secret, not a plain SHA-256 of it", async () => {
    const visitor = newVisitor();
    const key = randomUUID();
    await send(postEvent(sendRoute, visitor, withKey(key)));

    // Imported after the emulators started, as the handlers are: their SDK clients read the endpoints once.
    const { idempotencyRecordId } = await import('../../../lambdas/requests/idempotency');
    const { keyedPayloadOf } = await import('../../../lambdas/requests/keyed-step');
    const { Items = [] } = await emulators.dynamoDb.send(new ScanCommand({ TableName: idempotencyTableName }));
    const record = Items.find((item) => item.id === idempotencyRecordId('send-cheat-sheet', key))!;
    const parsed = parseCheatSheetRequest(visitor);
    if (!parsed.success) throw new Error(parsed.error);
    const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
    // Anyone holding the address could compute this one; the record must not hold it.
    expect(record.validation).not.toBe(sha256(JSON.stringify(parsed.data)));
    expect(record.validation).toBe(sha256(JSON.stringify(await keyedPayloadOf(parsed.data))));
  });

  test('the key is stored as a hash with its route, and expires a day after it was written', async () => {
    const key = `visible-key-${randomUUID()}`;
    const before = Math.floor(Date.now() / 1000);
    await send(postEvent(sendRoute, newVisitor(), withKey(key)));

    const { Items = [] } = await emulators.dynamoDb.send(new ScanCommand({ TableName: idempotencyTableName }));
    const texts = Items.map((item) => JSON.stringify(item));
    expect(texts.some((text) => text.includes(key))).toBe(false);
    const completed = Items.filter((item) => String(item.id).startsWith('send-cheat-sheet#'));
    expect(completed.length).toBeGreaterThan(0);
    const newest = completed.reduce((a, b) => (Number(a.expiration) > Number(b.expiration) ? a : b));
    expect(Number(newest.expiration)).toBeGreaterThanOrEqual(before + 24 * 60 * 60);
    expect(Number(newest.expiration)).toBeLessThanOrEqual(before + 24 * 60 * 60 + 60);
  });
});
