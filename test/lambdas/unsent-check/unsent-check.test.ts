/**
 * The unsent check's count, against dynalite: which requests page the operator and which do not,
 * and what a run reads: the unsent requests only, however many leads were sent.
 */

import { PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { isUnsentStatus, type DeliveryStatus } from '../../../core/data/delivery-status';
import { unsentIndex } from '../../../core/data/tables';
import { countUnnoticedUnsent } from '../../../lambdas/unsent-check/unsent-check';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

let emulators: HandlerStack;
beforeAll(async () => {
  emulators = await startHandlerStack();
});
afterAll(() => emulators?.stop());

const now = new Date('2026-01-01T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

/** An item as the product writes it: one awaiting its e-mail carries the unsent index's key. */
async function put(id: string, fields: Record<string, unknown>) {
  const status = fields.delivery_status as DeliveryStatus | undefined;
  await emulators.dynamoDb.send(
    new PutCommand({
      TableName: emulators.stack.tableName,
      Item: {
        id,
        name: 'Ada',
        email: `${id}@example.com`,
        cheat_sheet_sent: false,
        ...(status && isUnsentStatus(status) && { [unsentIndex.partitionKey]: unsentIndex.value }),
        ...fields,
      },
    }),
  );
}

/** Counts with a client that sums what each DynamoDB call read (ScannedCount) and names each call. */
async function countReading(now: Date): Promise<{ count: number; itemsRead: number; calls: string[] }> {
  let itemsRead = 0;
  const calls: string[] = [];
  const client = emulators.dynamoDb;
  const send = client.send.bind(client);
  const spy = jest.spyOn(client, 'send').mockImplementation((async (command: { constructor: { name: string } }) => {
    calls.push(command.constructor.name);
    const output = (await send(command as never)) as { ScannedCount?: number };
    itemsRead += output.ScannedCount ?? 0;
    return output;
  }) as never);
  try {
    const count = await countUnnoticedUnsent(client, emulators.stack.tableName, now);
    return { count, itemsRead, calls };
  } finally {
    spy.mockRestore();
  }
}

test('counts requests unsent 15 minutes after saving for a reason nobody was told of, and nothing else', async () => {
  await put('requested-20-min-ago', { requested_at: minutesAgo(20), delivery_status: 'requested' });
  await put('stuck-sending', { requested_at: minutesAgo(30), delivery_status: 'sending' });
  await put('failed-ses-down', {
    requested_at: minutesAgo(60),
    delivery_status: 'failed',
    failure_code: 'email_service_unavailable',
  });
  // Not counted: written before the unsent index existed (npm run leads -- unsent lists it), too recent, refused on purpose, sent, unknown (never resent by itself), an old sent item.
  await put('requested-5-min-ago', { requested_at: minutesAgo(5), delivery_status: 'requested' });
  await put('refused-by-cap', {
    requested_at: minutesAgo(60),
    delivery_status: 'failed',
    failure_code: 'address_daily_cap_reached',
  });
  await put('sent', { requested_at: minutesAgo(60), delivery_status: 'sent', cheat_sheet_sent: true });
  await put('unknown', { requested_at: minutesAgo(60), delivery_status: 'unknown' });
  await put('old-item-sent', { requested_at: minutesAgo(60), cheat_sheet_sent: true });
  await put('old-item-never-sent', { requested_at: minutesAgo(60 * 24) });

  expect(await countUnnoticedUnsent(emulators.dynamoDb, emulators.stack.tableName, now)).toBe(3);
});

test('a run reads the unsent requests only: ten times the sent leads, the same items read, and never a Scan', async () => {
  const later = new Date('2026-02-01T12:00:00.000Z');
  const before = (minutes: number) => new Date(later.getTime() - minutes * 60_000).toISOString();
  const putSent = async (from: number, to: number) => {
    for (let index = from; index < to; index += 1) {
      await put(`sent-${index}`, {
        requested_at: before(60 + index),
        delivery_status: 'delivered',
        cheat_sheet_sent: true,
      });
    }
  };
  await put('cost-requested', { requested_at: before(30), delivery_status: 'requested' });
  await put('cost-failed', {
    requested_at: before(45),
    delivery_status: 'failed',
    failure_code: 'email_service_unavailable',
  });
  await putSent(0, 40);
  const withFewLeads = await countReading(later);
  await putSent(40, 400);
  const withManyLeads = await countReading(later);

  expect(withManyLeads.itemsRead).toBe(withFewLeads.itemsRead);
  expect(withManyLeads.count).toBe(withFewLeads.count);
  // What it read: the table's unsent items saved 15 minutes ago or earlier (this file's others too), nothing sent.
  const { Items = [] } = await emulators.dynamoDb.send(new ScanCommand({ TableName: emulators.stack.tableName }));
  const unsentInIndex = Items.filter(
    (item) => item[unsentIndex.partitionKey] && (item.requested_at as string) <= before(15),
  ).length;
  expect(Items.length).toBeGreaterThan(400);
  expect(withManyLeads.itemsRead).toBe(unsentInIndex);
  expect(new Set([...withFewLeads.calls, ...withManyLeads.calls])).toEqual(new Set([QueryCommand.name]));
  expect(withManyLeads.calls).not.toContain(ScanCommand.name);
});

test('does not count a request whose reader was mailed through a later request (superseded)', async () => {
  const table = `${emulators.stack.tableName}`;
  const before = await countUnnoticedUnsent(emulators.dynamoDb, table, now);
  await put('failed-then-superseded', {
    requested_at: minutesAgo(60),
    delivery_status: 'failed',
    failure_code: 'email_service_unavailable',
    superseded_by: 'sent',
  });

  expect(await countUnnoticedUnsent(emulators.dynamoDb, table, now)).toBe(before);
});
