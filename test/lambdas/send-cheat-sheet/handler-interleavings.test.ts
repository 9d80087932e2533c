/**
 * One e-mail per submission under every interleaving, through the real handlers, Powertools and
 * the SDK against the emulators, with a stand-in in front of dynalite that drops a write (the
 * function stopped at its deadline before DynamoDB answered), lets one arrive late, or answers
 * the e-mail index's queries with nothing (the index lagging behind the table), and SES's events
 * delivered out of order. Each case ends with one e-mail and the request's right final status.
 */

import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context, EventBridgeEvent } from 'aws-lambda';
import { replyMarginMs, sdkTimeouts } from '../../../core/config/sdk-timeouts';
import { DeleteCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { idempotencyTableName, type CheatSheetRequestItem } from '../../../core/data/tables';
import type { SesEventRecord } from '../../../lambdas/ses-events/ses-events';
import { runLeadsCommand } from '../../../ops/leads/leads-command';
import { documented, type Handler } from '../support/documented-handler';
import { withFreshHandler } from '../support/fresh-handler';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';
import { callSeen, startDelayingProxy, type DelayingProxy, type ProxiedCall } from '../support/slow-endpoints';

const sendHandlerPath = '../../../lambdas/send-cheat-sheet/handler';

let emulators: HandlerStack;
let proxy: DelayingProxy;
let save: Handler;
let send: Handler;
let sesEvents: (event: EventBridgeEvent<string, SesEventRecord>) => Promise<unknown>;

beforeAll(async () => {
  emulators = await startHandlerStack({ emailFaultInjection: true });
  proxy = await startDelayingProxy(emulators.stack.endpoints.dynamodb);
  save = documented((await import('../../../lambdas/save-request/handler')).handler);
  send = documented((await import(sendHandlerPath)).handler);
  sesEvents = (await import('../../../lambdas/ses-events/handler')).handler;
});
afterEach(() => {
  proxy.stopDropping();
  proxy.lagIndexes(false);
  emulators.stack.setEmailFault(null);
});
afterAll(async () => {
  await proxy?.close();
  await emulators?.stop();
});

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Once ${++visitorNumber}`, email: `ada.once.${visitorNumber}@example.com` });
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

/** The send's write that records SES's acceptance on the request (`sent`, `cheat_sheet_sent`, under its token). */
const isMarkSent = (call: ProxiedCall) =>
  call.operation === 'UpdateItem' &&
  JSON.stringify(call.body).includes('"#cheat_sheet_sent"') &&
  String(call.body.ConditionExpression).startsWith('send_token = :token');

/** The send route's idempotency records, as Powertools keeps them. */
async function sendRecords(): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await emulators.dynamoDb.send(new ScanCommand({ TableName: idempotencyTableName }));
  return Items.filter((item) => String(item.id).startsWith('send-cheat-sheet#'));
}

/** The key's in-progress record lapses, as it does when the function that holds it reaches its deadline. */
async function lapseInProgressRecords(): Promise<void> {
  for (const record of await sendRecords()) {
    if (record.status !== 'INPROGRESS') continue;
    await emulators.dynamoDb.send(
      new UpdateCommand({
        TableName: idempotencyTableName,
        Key: { id: record.id },
        UpdateExpression: 'SET in_progress_expiration = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );
  }
}

/** The key's record is gone (its completion was never written, and its claim lapsed; or a day passed). */
async function forgetSendRecords(): Promise<void> {
  for (const record of await sendRecords()) {
    await emulators.dynamoDb.send(new DeleteCommand({ TableName: idempotencyTableName, Key: { id: record.id } }));
  }
}

/** An SES event as EventBridge hands it to the events function. */
function sesEvent(
  eventType: 'Delivery' | 'Bounce',
  item: Pick<CheatSheetRequestItem, 'id' | 'email'>,
  messageId: string | undefined,
): EventBridgeEvent<string, SesEventRecord> {
  return {
    version: '0',
    id: `event-${randomUUID()}`,
    'detail-type': eventType === 'Delivery' ? 'Email Delivered' : 'Email Bounced',
    source: 'aws.ses',
    account: '123456789012',
    time: new Date().toISOString(),
    region: 'us-east-1',
    resources: [],
    detail: {
      eventType,
      mail: {
        timestamp: new Date().toISOString(),
        messageId,
        destination: [item.email],
        tags: { request_id: [item.id] },
      },
      ...(eventType === 'Delivery'
        ? { delivery: { timestamp: new Date().toISOString() } }
        : {
            bounce: {
              bounceType: 'Permanent',
              timestamp: new Date().toISOString(),
              bouncedRecipients: [{ emailAddress: item.email }],
            },
          }),
    },
  };
}

/** `npm run leads -- resend --yes`, run as if 20 minutes had passed. */
async function resend(): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await runLeadsCommand(['resend', '--yes'], {
    stdout: (text) => (stdout += `${text}\n`),
    stderr: () => undefined,
    stdin: Readable.from([]),
    env: process.env,
    now: () => new Date(Date.now() + 20 * 60_000),
  });
  return { code, stdout };
}

describe('a Try Again after a timeout', () => {
  test("while the first send is stuck recording SES's acceptance and its key has lapsed: no second e-mail, and SES's delivery settles the request", async () => {
    const visitor = newVisitor();
    const key = randomUUID();
    const saved = replyJson(await save(postEvent(saveRoute, visitor, withKey(key))));
    proxy.drop(isMarkSent);

    const [first, again] = await withFreshHandler(
      sendHandlerPath,
      { AWS_ENDPOINT_URL_DYNAMODB: proxy.url },
      async (sendThroughProxy) => {
        const seen = proxy.calls().length;
        const pending = sendThroughProxy(postEvent(sendRoute, visitor, withKey(key)));
        // SES has accepted it; the write recording it never comes back, and the function's deadline passes.
        await callSeen(proxy, isMarkSent, seen);
        await lapseInProgressRecords();
        const retried = await sendThroughProxy(postEvent(sendRoute, visitor, withKey(key)));
        return [await pending, retried];
      },
      documented,
    );

    expect(first.statusCode).toBe(200);
    expect([again.statusCode, replyJson(again).code]).toEqual([409, 'idempotency_key_in_use']);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    const [item, ...others] = await emulators.items(visitor.email);
    expect(others).toEqual([]);
    expect(item).toMatchObject({ id: saved.id, delivery_status: 'sending' });

    await sesEvents(sesEvent('Delivery', item!, 'ses-message-of-the-first-send'));
    expect((await emulators.items(visitor.email))[0]).toMatchObject({ id: saved.id, delivery_status: 'delivered' });
  }, 30_000);

  test("after the send's idempotency record lapsed: the key's sent request answers 200, and nothing is sent again", async () => {
    const visitor = newVisitor();
    const key = randomUUID();
    await save(postEvent(saveRoute, visitor, withKey(key)));
    expect((await send(postEvent(sendRoute, visitor, withKey(key)))).statusCode).toBe(200);
    await forgetSendRecords();

    const again = await send(postEvent(sendRoute, visitor, withKey(key)));

    expect(again.statusCode).toBe(200);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    expect(await emulators.items(visitor.email)).toEqual([expect.objectContaining({ delivery_status: 'sent' })]);
  });

  test('after an unknown outcome whose reply was not kept: nothing is sent again for the key', async () => {
    const visitor = newVisitor();
    const key = randomUUID();
    await save(postEvent(saveRoute, visitor, withKey(key)));
    const [item] = await emulators.items(visitor.email);
    await emulators.dynamoDb.send(
      new UpdateCommand({
        TableName: emulators.stack.tableName,
        Key: { id: item!.id },
        UpdateExpression: 'SET delivery_status = :unknown',
        ExpressionAttributeValues: { ':unknown': 'unknown' },
      }),
    );

    const again = await send(postEvent(sendRoute, visitor, withKey(key)));

    expect(again.statusCode).toBe(503);
    expect(await emulators.emails(visitor.email)).toEqual([]);
    expect(await emulators.items(visitor.email)).toEqual([expect.objectContaining({ delivery_status: 'unknown' })]);
  });
});

describe('resend after a send the e-mail index did not see', () => {
  test('the index lagging more than 300 ms behind the save: the send mails the saved request, and resend mails nobody', async () => {
    const visitor = newVisitor();
    const key = randomUUID();
    const saved = replyJson(await save(postEvent(saveRoute, visitor, withKey(key))));
    proxy.lagIndexes(true);

    const sent = await withFreshHandler(
      sendHandlerPath,
      { AWS_ENDPOINT_URL_DYNAMODB: proxy.url },
      (sendThroughProxy) => sendThroughProxy(postEvent(sendRoute, visitor, withKey(key))),
      documented,
    );
    proxy.lagIndexes(false);
    const resent = await resend();

    expect(sent.statusCode).toBe(200);
    expect(resent.stdout).not.toContain(visitor.email);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    expect(await emulators.items(visitor.email)).toEqual([
      expect.objectContaining({ id: saved.id, delivery_status: 'sent', cheat_sheet_sent: true }),
    ]);
  }, 20_000);

  test('without a key, the index lagging: resend does not mail the reader the new item already reached', async () => {
    const visitor = newVisitor();
    const saved = replyJson(await save(postEvent(saveRoute, visitor)));
    proxy.lagIndexes(true);

    const sent = await withFreshHandler(
      sendHandlerPath,
      { AWS_ENDPOINT_URL_DYNAMODB: proxy.url },
      (sendThroughProxy) => sendThroughProxy(postEvent(sendRoute, visitor)),
      documented,
    );
    proxy.lagIndexes(false);
    const resent = await resend();

    expect(sent.statusCode).toBe(200);
    expect(resent.stdout).not.toContain(visitor.email);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    const items = await emulators.items(visitor.email);
    const newItem = items.find((item) => item.id !== saved.id);
    expect(newItem).toMatchObject({ delivery_status: 'sent' });
    expect(items.find((item) => item.id === saved.id)).toMatchObject({
      delivery_status: 'requested',
      superseded_by: newItem!.id,
    });
  }, 20_000);

  test('an older request that failed and a later one that succeeded: resend mails nobody, and the older one is superseded', async () => {
    const visitor = newVisitor();
    const firstKey = randomUUID();
    const older = replyJson(await save(postEvent(saveRoute, visitor, withKey(firstKey))));
    emulators.stack.setEmailFault('internal-error');
    expect((await send(postEvent(sendRoute, visitor, withKey(firstKey)))).statusCode).toBe(503);
    emulators.stack.setEmailFault(null);
    const laterKey = randomUUID();
    const later = replyJson(await save(postEvent(saveRoute, visitor, withKey(laterKey))));
    expect((await send(postEvent(sendRoute, visitor, withKey(laterKey)))).statusCode).toBe(200);

    const resent = await resend();

    expect(resent.stdout).not.toContain(visitor.email);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    const items = await emulators.items(visitor.email);
    expect(items.find((item) => item.id === later.id)).toMatchObject({ delivery_status: 'sent' });
    expect(items.find((item) => item.id === older.id)).toMatchObject({
      delivery_status: 'failed',
      superseded_by: later.id,
    });
  });
});

describe("SES's verdict and a late record of the send", () => {
  test("a bounce that arrives before the send's own record of SES's acceptance stays bounced", async () => {
    const visitor = newVisitor();
    const key = randomUUID();
    const saved = replyJson(await save(postEvent(saveRoute, visitor, withKey(key))));
    // The write recording `sent` reaches DynamoDB 1.5 s late: well within the SDK's timeout.
    proxy.holdNextRequest(isMarkSent, 1_500);

    const sent = await withFreshHandler(
      sendHandlerPath,
      { AWS_ENDPOINT_URL_DYNAMODB: proxy.url },
      async (sendThroughProxy) => {
        const seen = proxy.calls().length;
        const pending = sendThroughProxy(postEvent(sendRoute, visitor, withKey(key)));
        const markSent = await callSeen(proxy, isMarkSent, seen);
        const messageId = (markSent.body.ExpressionAttributeValues as Record<string, { S?: string }>)[':ses_message_id']
          ?.S;
        await sesEvents(sesEvent('Bounce', { id: saved.id as string, email: visitor.email }, messageId));
        return pending;
      },
      documented,
    );

    expect(sent.statusCode).toBe(200);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    expect(await emulators.items(visitor.email)).toEqual([
      expect.objectContaining({ id: saved.id, delivery_status: 'bounced', cheat_sheet_sent: true }),
    ]);
  }, 20_000);
});

describe('the time left before the SES call', () => {
  test('enough for the SES call but not for recording its outcome after it: nothing is sent', async () => {
    const visitor = newVisitor();
    // The SES call's own timeout and a reply's margin fit; the record of the outcome (up to 7 s) does not.
    const remaining = sdkTimeouts.requestTimeoutMs + replyMarginMs + 1_000;
    const context = { getRemainingTimeInMillis: () => remaining } as Context;

    const reply = await withFreshHandler<
      APIGatewayProxyStructuredResultV2,
      (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>
    >(sendHandlerPath, {}, (sendWithContext) => sendWithContext(postEvent(sendRoute, visitor), context));

    expect(reply.statusCode).toBe(503);
    expect(await emulators.emails(visitor.email)).toEqual([]);
  });
});
