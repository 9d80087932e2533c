/**
 * The funnel's counter against the local DynamoDB (dynalite): the day's salt is made once and
 * shared, a visitor is unique once a day and again the next day, and the next day's first visit
 * deletes the day before's salt, so no hash of a past day can be matched to anyone. The salt and
 * the marks live in the funnel visitors' table (no backup keeps it); the counters' table, which
 * point-in-time recovery keeps, holds the day's counts only.
 */

import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { funnelDayId, visitorSaltId, type FunnelDayItem } from '../../../core/data/funnel';
import { visitCounter, visitorHash } from '../../../lambdas/funnel/visitor-count';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

let handlers: HandlerStack;
beforeAll(async () => {
  handlers = await startHandlerStack();
});
afterAll(async () => {
  await handlers.stop();
});

const reader = { network: '192.0.2.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Firefox/133.0' };
const at = (iso: string) => new Date(iso);

async function itemIn(tableName: string, id: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await handlers.dynamoDb.send(
    new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }),
  );
  return Item;
}
const countsItem = (id: string) => itemIn(handlers.stack.limitCountersTableName, id);
const visitorsItem = (id: string) => itemIn(handlers.stack.funnelVisitorsTableName, id);

function newCounter(newSalt?: () => string) {
  const tables = {
    countsTableName: handlers.stack.limitCountersTableName,
    visitorsTableName: handlers.stack.funnelVisitorsTableName,
  };
  return visitCounter(handlers.dynamoDb, tables, newSalt);
}

test('two containers share the day’s salt, so a visitor is unique once however the visits are spread', async () => {
  const first = newCounter();
  const second = newCounter();

  const results = [
    await first.count(reader, at('2031-01-10T08:00:00Z')),
    await second.count(reader, at('2031-01-10T09:00:00Z')),
  ];

  expect(results.map((result) => result.uniqueVisitor)).toEqual([true, false]);
  const day = (await countsItem(funnelDayId('2031-01-10'))) as FunnelDayItem | undefined;
  expect([day?.visits, day?.unique_visitors]).toEqual([2, 1]);
});

test('the same visitor is a unique visitor again the next day', async () => {
  const counter = newCounter();

  await counter.count(reader, at('2031-02-01T23:59:00Z'));
  const nextDay = await counter.count(reader, at('2031-02-02T00:01:00Z'));

  expect(nextDay.uniqueVisitor).toBe(true);
});

test("the next day's first visit deletes the day before's salt", async () => {
  const counter = newCounter();
  await counter.count(reader, at('2031-03-01T12:00:00Z'));
  expect(await visitorsItem(visitorSaltId('2031-03-01'))).toBeDefined();

  await counter.count(reader, at('2031-03-02T00:00:01Z'));

  expect(await visitorsItem(visitorSaltId('2031-03-01'))).toBeUndefined();
});

test('the salt and the visitor marks expire at the end of their day', async () => {
  const counter = newCounter(() => 'a-known-salt');
  await counter.count(reader, at('2031-04-01T10:00:00Z'));

  const endOfDay = Date.parse('2031-04-02T00:00:00Z') / 1000;
  expect((await visitorsItem(visitorSaltId('2031-04-01')))?.expires_at).toBe(endOfDay);
  const mark = await visitorsItem(`funnel-visitor#2031-04-01#${visitorHash('a-known-salt', '2031-04-01', reader)}`);
  expect(mark?.expires_at).toBe(endOfDay);
});

test("the counters' table, which backups keep, gets the day's counts and neither the salt nor a visitor's mark", async () => {
  const counter = newCounter(() => 'a-salt-of-its-own');
  await counter.count(reader, at('2031-06-01T10:00:00Z'));

  const { Items = [] } = await handlers.dynamoDb.send(
    new ScanCommand({ TableName: handlers.stack.limitCountersTableName }),
  );
  const ofDay = Items.filter((item) => String(item.id).includes('2031-06-01'));
  expect(ofDay.map((item) => item.id)).toEqual([funnelDayId('2031-06-01')]);
  expect(JSON.stringify(Items)).not.toContain('a-salt-of-its-own');
});

test('a hash depends on the salt: without the day’s salt the same visitor cannot be recognised', () => {
  expect(visitorHash('salt-one', '2031-05-01', reader)).not.toBe(visitorHash('salt-two', '2031-05-01', reader));
});
