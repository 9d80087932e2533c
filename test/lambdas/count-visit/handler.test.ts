/**
 * GET /api/visit through the real handler against the local DynamoDB (dynalite): each visit counts
 * in the day's funnel, each visitor once a day, known bots never; the reply is always the same
 * uncached GIF, held to docs/openapi.yaml, and nothing stored holds an address or a user agent.
 */

import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf, funnelDayId, type FunnelDayItem } from '../../../core/data/funnel';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { getEvent, visitRoute, withMethod } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const safari =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let handlers: HandlerStack;
let visit: Handler;

beforeAll(async () => {
  handlers = await startHandlerStack();
  const module = (await import('../../../lambdas/count-visit/handler')) as { handler: Handler };
  visit = documented(module.handler);
});
afterAll(async () => {
  await handlers.stop();
});

const from = (userAgent: string | undefined, sourceIp = '198.51.100.7') =>
  getEvent(visitRoute, { sourceIp, headers: userAgent === undefined ? {} : { 'user-agent': userAgent } });

async function today(): Promise<{ visits: number; uniqueVisitors: number }> {
  const { Item } = await handlers.dynamoDb.send(
    new GetCommand({ TableName: handlers.stack.limitCountersTableName, Key: { id: funnelDayId(dayOf(new Date())) } }),
  );
  const item = Item as FunnelDayItem | undefined;
  return { visits: item?.visits ?? 0, uniqueVisitors: item?.unique_visitors ?? 0 };
}

test('it answers a transparent GIF that is never cached', async () => {
  const reply = await visit(from(firefox));

  expect(reply.statusCode).toBe(200);
  expect(reply.headers).toMatchObject({ 'Content-Type': 'image/gif', 'Cache-Control': 'no-store' });
  expect(
    Buffer.from(reply.body ?? '', 'base64')
      .subarray(0, 6)
      .toString('latin1'),
  ).toBe('GIF89a');
});

test('each visit counts, and each visitor once a day', async () => {
  const before = await today();

  await visit(from(safari, '192.0.2.10'));
  await visit(from(safari, '192.0.2.10'));
  await visit(from(safari, '192.0.2.11'));

  expect(await today()).toEqual({ visits: before.visits + 3, uniqueVisitors: before.uniqueVisitors + 2 });
});

test('the same address with another browser is another visitor', async () => {
  const before = await today();

  await visit(from(firefox, '192.0.2.20'));
  await visit(from(safari, '192.0.2.20'));

  expect((await today()).uniqueVisitors).toBe(before.uniqueVisitors + 2);
});

test("a known bot's visit and a visit with no user agent count nothing, and still get the GIF", async () => {
  const before = await today();

  const replies = [await visit(from(googlebot)), await visit(from(undefined))];

  expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200]);
  expect(await today()).toEqual(before);
});

test('nothing stored holds the address or the user agent', async () => {
  await visit(from(firefox, '203.0.113.99'));

  const { Items = [] } = await handlers.dynamoDb.send(
    new ScanCommand({ TableName: handlers.stack.limitCountersTableName }),
  );
  const stored = JSON.stringify(Items);
  expect(stored).not.toContain('203.0.113.99');
  expect(stored).not.toContain('Firefox');
});

test('another method is answered 405 naming GET, and counts nothing', async () => {
  const before = await today();

  const reply = await visit(withMethod(from(firefox), 'POST'));

  expect(reply.statusCode).toBe(405);
  expect(reply.headers?.Allow).toBe('GET');
  expect(await today()).toEqual(before);
});

test('when the count cannot be written, the page still gets its GIF', async () => {
  const table = process.env.SEND_QUOTA_TABLE_NAME;
  process.env.SEND_QUOTA_TABLE_NAME = 'no_such_table';
  try {
    const reply = await visit(from(firefox, '192.0.2.30'));

    expect(reply.statusCode).toBe(200);
    expect(reply.headers?.['Content-Type']).toBe('image/gif');
  } finally {
    process.env.SEND_QUOTA_TABLE_NAME = table;
  }
});
