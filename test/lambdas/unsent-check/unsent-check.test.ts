/**
 * The unsent check's count, against dynalite: which requests page the operator and which do not,
 * that each is counted once (by the run whose slice holds its save), and what a run reads: its
 * slice's unsent requests only, however many leads were sent or are stuck from before.
 */

import { PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { isUnsentStatus, type DeliveryStatus } from '../../../core/data/delivery-status';
import { unsentIndex } from '../../../core/data/tables';
import { countNewlyUnsent, tickOf, unsentCheckSlice } from '../../../lambdas/unsent-check/unsent-check';
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

/** Counts (a run at the tick `now`) with a client that sums what each DynamoDB call read (ScannedCount) and names each call. */
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
    const count = await countNewlyUnsent(client, emulators.stack.tableName, now);
    return { count, itemsRead, calls };
  } finally {
    spy.mockRestore();
  }
}

const minutes = (tick: Date, count: number) => new Date(tick.getTime() + count * 60_000);

test('counts the requests of its slice unsent at the tick for a reason nobody was told of, and nothing else', async () => {
  // Saved 15 to 20 minutes before the tick: the run's slice.
  await put('requested-16-min-ago', { requested_at: minutesAgo(16), delivery_status: 'requested' });
  await put('stuck-sending', { requested_at: minutesAgo(17), delivery_status: 'sending' });
  await put('failed-ses-down', {
    requested_at: minutesAgo(19),
    delivery_status: 'failed',
    failure_code: 'email_service_unavailable',
  });
  // Not counted: refused on purpose, sent, unknown (never resent by itself), an old sent item, too recent, and
  // older than the slice (an earlier run counted it).
  await put('refused-by-cap', {
    requested_at: minutesAgo(18),
    delivery_status: 'failed',
    failure_code: 'address_daily_cap_reached',
  });
  await put('sent', { requested_at: minutesAgo(18), delivery_status: 'sent', cheat_sheet_sent: true });
  await put('unknown', { requested_at: minutesAgo(18), delivery_status: 'unknown' });
  await put('old-item-sent', { requested_at: minutesAgo(18), cheat_sheet_sent: true });
  await put('requested-5-min-ago', { requested_at: minutesAgo(5), delivery_status: 'requested' });
  await put('stuck-since-yesterday', { requested_at: minutesAgo(60 * 24), delivery_status: 'sending' });
  await put('requested-21-min-ago', { requested_at: minutesAgo(21), delivery_status: 'requested' });

  expect(await countNewlyUnsent(emulators.dynamoDb, emulators.stack.tableName, now)).toBe(3);
});

test('a request stuck for hours is counted once: by the one run whose slice holds its save', async () => {
  const day = new Date('2026-03-01T00:00:00.000Z');
  await put('stuck-all-day', { requested_at: minutes(day, 7 * 60 + 2).toISOString(), delivery_status: 'sending' });
  // Every run of the six hours from 06:00: its save at 07:02, stuck since.
  const ticks = Array.from({ length: (6 * 60) / 5 }, (_, run) => minutes(day, 6 * 60 + 5 * run + 3));

  const counts = await Promise.all(
    ticks.map((tick) => countNewlyUnsent(emulators.dynamoDb, emulators.stack.tableName, tick)),
  );

  expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);
});

test("the slices of ticks 5 minutes apart meet: a save on a slice's edge belongs to the later run alone", () => {
  const tick = new Date('2026-03-01T10:03:27.000Z');
  const next = unsentCheckSlice(minutes(tick, 5));

  expect(unsentCheckSlice(tick)).toEqual({
    from: new Date('2026-03-01T09:43:00.000Z'),
    before: new Date('2026-03-01T09:48:00.000Z'),
  });
  expect(next.from).toEqual(unsentCheckSlice(tick).before);
});

test("a run counts its scheduled event's tick, so a retry minutes later counts the same slice", () => {
  const event = { 'detail-type': 'Scheduled Event', time: '2026-03-01T10:05:00Z' };

  expect(tickOf(event, new Date('2026-03-01T10:08:10Z'))).toEqual(new Date('2026-03-01T10:05:00Z'));
  expect(tickOf({}, new Date('2026-03-01T10:08:10Z'))).toEqual(new Date('2026-03-01T10:08:10Z'));
});

test('a run reads its slice only: hundreds of sent leads and of requests stuck from before read nothing more, and never a Scan', async () => {
  const later = new Date('2026-02-01T12:00:00.000Z');
  const before = (minutes: number) => new Date(later.getTime() - minutes * 60_000).toISOString();
  const putMany = async (from: number, to: number) => {
    for (let index = from; index < to; index += 1) {
      await put(`sent-${index}`, { requested_at: before(16), delivery_status: 'delivered', cheat_sheet_sent: true });
      await put(`stuck-${index}`, { requested_at: before(60 + index), delivery_status: 'sending' });
    }
  };
  await put('cost-requested', { requested_at: before(16), delivery_status: 'requested' });
  await put('cost-failed', {
    requested_at: before(19),
    delivery_status: 'failed',
    failure_code: 'email_service_unavailable',
  });
  await putMany(0, 10);
  const withFewLeads = await countReading(later);
  await putMany(10, 100);
  const withManyLeads = await countReading(later);

  expect(withManyLeads.itemsRead).toBe(withFewLeads.itemsRead);
  expect(withManyLeads.itemsRead).toBe(2);
  expect(withManyLeads.count).toBe(2);
  expect(new Set([...withFewLeads.calls, ...withManyLeads.calls])).toEqual(new Set([QueryCommand.name]));
  expect(withManyLeads.calls).not.toContain(ScanCommand.name);
});

test('does not count a request whose reader was mailed through a later request (superseded)', async () => {
  const tick = new Date('2026-04-01T12:00:00.000Z');
  await put('failed-then-superseded', {
    requested_at: minutes(tick, -16).toISOString(),
    delivery_status: 'failed',
    failure_code: 'email_service_unavailable',
    superseded_by: 'sent',
  });

  expect(await countNewlyUnsent(emulators.dynamoDb, emulators.stack.tableName, tick)).toBe(0);
});

test("the handler counts the slice of its scheduled event's time, not the clock's: a retry minutes later counts the same requests", async () => {
  const { handler } = await import('../../../lambdas/unsent-check/handler');
  const tick = new Date('2026-05-01T12:00:00.000Z');
  await put('unsent-at-the-retried-tick', {
    requested_at: minutes(tick, -17).toISOString(),
    delivery_status: 'requested',
  });

  // The clock is days past the tick: only the event's time finds the request.
  expect(await handler({ 'detail-type': 'Scheduled Event', time: '2026-05-01T12:00:00Z' })).toEqual({ unsent: 1 });
});
