/**
 * Services that act but answer too late, through the real SDK: a stand-in SES that accepts every
 * e-mail and answers after the SDK's request timeout, and a proxy in front of dynalite that holds
 * back the reply of one write past that timeout (the write itself lands at once). The SDK then
 * times out, and may try again: nothing may happen twice.
 */

import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { sdkTimeouts } from '../../../core/config/sdk-timeouts';
import { requestsTable } from '../../../core/data/tables';
import { timeNeededPerAttemptMs } from '../../../lambdas/mail/email-sender';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';
import { documented } from '../support/documented-handler';
import { withFreshHandler } from '../support/fresh-handler';
import { startDelayingProxy, startSlowSes, type DelayingProxy, type ProxiedCall } from '../support/slow-endpoints';

const sendHandlerPath = '../../../lambdas/send-cheat-sheet/handler';
const saveHandlerPath = '../../../lambdas/save-request/handler';
/** Past the SDK's request timeout: the SDK gives up on the reply of a call that took effect. */
const lateMs = sdkTimeouts.requestTimeoutMs + 500;

let emulators: HandlerStack;
let proxy: DelayingProxy;

beforeAll(async () => {
  emulators = await startHandlerStack();
  proxy = await startDelayingProxy(emulators.stack.endpoints.dynamodb);
});
afterAll(async () => {
  await proxy?.close();
  await emulators?.stop();
});

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Slow ${++visitorNumber}`, email: `ada.slow.${visitorNumber}@example.com` });
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

/** The sends (or saves) the rolling counters hold under ids starting with `prefix`. */
async function countedUnder(prefix: string): Promise<number> {
  return (await emulators.counterItems())
    .filter((item) => item.id.startsWith(prefix))
    .reduce((total, item) => total + (item.sends ?? 0), 0);
}

const isPut = (table: string) => (call: ProxiedCall) => call.operation === 'PutItem' && call.body.TableName === table;
const isCounterClaim = (call: ProxiedCall) =>
  call.operation === 'UpdateItem' && String(call.body.UpdateExpression).startsWith('ADD #sends :one');

describe('a slow SES acceptance', () => {
  test('sends one e-mail: the SDK does not try again, and the same key replays the 503 without calling SES', async () => {
    const ses = await startSlowSes(lateMs);
    try {
      const visitor = newVisitor();
      const key = randomUUID();
      const [first, again] = await withFreshHandler(
        sendHandlerPath,
        { AWS_ENDPOINT_URL_SESV2: ses.url },
        async (send) => [
          await send(postEvent(sendRoute, visitor, withKey(key))),
          await send(postEvent(sendRoute, visitor, withKey(key))),
        ],
        documented,
      );

      expect(first.statusCode).toBe(503);
      expect(replyJson(first)).toEqual(expect.objectContaining({ code: 'email_service_unavailable' }));
      expect(again.body).toBe(first.body);
      expect(ses.accepted()).toBe(1);
    } finally {
      await ses.close();
    }
  }, 20_000);
});

describe('the time left in the function', () => {
  test('too little for an SES call: 503 at once, no e-mail, and the limits give their slots back', async () => {
    const visitor = newVisitor();
    const context = { getRemainingTimeInMillis: () => timeNeededPerAttemptMs - 1 } as Context;
    const counted = await countedUnder('client#');

    const reply = await withFreshHandler<
      APIGatewayProxyStructuredResultV2,
      (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>
    >(sendHandlerPath, {}, (send) => send(postEvent(sendRoute, visitor), context));

    expect(reply.statusCode).toBe(503);
    expect(await emulators.emails(visitor.email)).toEqual([]);
    expect(await countedUnder('client#')).toBe(counted);
  });
});

describe('a slow first DynamoDB write', () => {
  test("of the request's PutItem: one stored item, one count, and 201", async () => {
    const visitor = newVisitor();
    const counted = await countedUnder('save-client#');
    proxy.delayNext(isPut(requestsTable.name), lateMs);

    const reply = await withFreshHandler(
      saveHandlerPath,
      { AWS_ENDPOINT_URL_DYNAMODB: proxy.url },
      (save) => save(postEvent(saveRoute, visitor)),
      documented,
    );

    expect(proxy.delayed()).toBe(1);
    expect(reply.statusCode).toBe(201);
    expect(await emulators.items(visitor.email)).toEqual([expect.objectContaining({ id: replyJson(reply).id })]);
    expect(await countedUnder('save-client#')).toBe(counted + 1);
  }, 20_000);

  test("of a save limit's claim: counted once, and 201", async () => {
    const visitor = newVisitor();
    const counted = await countedUnder('save-client#');
    proxy.delayNext(isCounterClaim, lateMs);

    const reply = await withFreshHandler(
      saveHandlerPath,
      { AWS_ENDPOINT_URL_DYNAMODB: proxy.url },
      (save) => save(postEvent(saveRoute, visitor)),
      documented,
    );

    expect(proxy.delayed()).toBe(2);
    expect(reply.statusCode).toBe(201);
    expect(await countedUnder('save-client#')).toBe(counted + 1);
    expect(await emulators.items(visitor.email)).toHaveLength(1);
  }, 20_000);

  test("of the address's daily cap: one e-mail, counted once", async () => {
    const visitor = newVisitor();
    proxy.delayNext(
      (call) => call.operation === 'UpdateItem' && String(call.body.UpdateExpression).startsWith('SET #sends = :sends'),
      lateMs,
    );

    const reply = await withFreshHandler(
      sendHandlerPath,
      { AWS_ENDPOINT_URL_DYNAMODB: proxy.url },
      (send) => send(postEvent(sendRoute, visitor)),
      documented,
    );

    expect(proxy.delayed()).toBe(3);
    expect(reply.statusCode).toBe(200);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    const quota = await emulators.addressDailyCapItems();
    const mine = quota.filter((item) => Object.values(item.claims ?? {}).length === 1 && item.version === 1);
    expect(mine.length).toBeGreaterThan(0);
    expect(quota.every((item) => item.recent_sends.length === Object.keys(item.claims ?? {}).length)).toBe(true);
  }, 20_000);

  test('of the flag on the sent request: the request is flagged once and no second item is written', async () => {
    const visitor = newVisitor();
    const saved = replyJson(
      await withFreshHandler(saveHandlerPath, {}, (save) => save(postEvent(saveRoute, visitor)), documented),
    );
    proxy.delayNext(
      (call) => call.operation === 'UpdateItem' && JSON.stringify(call.body).includes('"#cheat_sheet_sent"'),
      lateMs,
    );

    const reply = await withFreshHandler(
      sendHandlerPath,
      { AWS_ENDPOINT_URL_DYNAMODB: proxy.url },
      (send) => send(postEvent(sendRoute, visitor)),
      documented,
    );

    expect(proxy.delayed()).toBe(4);
    expect(reply.statusCode).toBe(200);
    expect(await emulators.items(visitor.email)).toEqual([
      expect.objectContaining({ id: saved.id, cheat_sheet_sent: true }),
    ]);
  }, 20_000);
});
