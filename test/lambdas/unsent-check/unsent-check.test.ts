/** The unsent check's count, against dynalite: which requests page the operator and which do not. */

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { countUnnoticedUnsent } from '../../../lambdas/unsent-check/unsent-check';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

let emulators: HandlerStack;
beforeAll(async () => {
  emulators = await startHandlerStack();
});
afterAll(() => emulators?.stop());

const now = new Date('2026-01-01T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

async function put(id: string, fields: Record<string, unknown>) {
  await emulators.dynamoDb.send(
    new PutCommand({
      TableName: emulators.stack.tableName,
      Item: { id, name: 'Ada', email: `${id}@example.com`, cheat_sheet_sent: false, ...fields },
    }),
  );
}

test('counts requests unsent 15 minutes after saving for a reason nobody was told of, and nothing else', async () => {
  await put('requested-20-min-ago', { requested_at: minutesAgo(20), delivery_status: 'requested' });
  await put('stuck-sending', { requested_at: minutesAgo(30), delivery_status: 'sending' });
  await put('failed-ses-down', {
    requested_at: minutesAgo(60),
    delivery_status: 'failed',
    failure_code: 'email_service_unavailable',
  });
  await put('old-item-never-sent', { requested_at: minutesAgo(60 * 24) });
  // Not counted: too recent, refused on purpose, sent, unknown (never resent by itself), an old sent item.
  await put('requested-5-min-ago', { requested_at: minutesAgo(5), delivery_status: 'requested' });
  await put('refused-by-cap', {
    requested_at: minutesAgo(60),
    delivery_status: 'failed',
    failure_code: 'address_daily_cap_reached',
  });
  await put('sent', { requested_at: minutesAgo(60), delivery_status: 'sent', cheat_sheet_sent: true });
  await put('unknown', { requested_at: minutesAgo(60), delivery_status: 'unknown' });
  await put('old-item-sent', { requested_at: minutesAgo(60), cheat_sheet_sent: true });

  expect(await countUnnoticedUnsent(emulators.dynamoDb, emulators.stack.tableName, now)).toBe(4);
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
