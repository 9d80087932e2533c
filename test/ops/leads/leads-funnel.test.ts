/**
 * `npm run leads -- funnel` against the local DynamoDB (dynalite), through the real AWS SDK: each
 * day's visits and unique visitors as the visit function stored them, the requests of that day
 * by where they stand, and the conversion; a table by default, JSON with --json.
 */

import { Readable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { funnelDayId } from '../../../core/data/funnel';
import { startLocalStack, type LocalStack } from '../../../local/local-stack';
import { runLeadsCommand, type LeadsCommandIo } from '../../../ops/leads/leads-command';

let stack: LocalStack;
let dynamoDb: DynamoDBDocumentClient;

const now = () => new Date('2030-06-03T15:00:00.000Z');

beforeAll(async () => {
  stack = await startLocalStack({ siteDir: null, cheatSheetPdf: null });
  dynamoDb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const visits = [
    { day: '2030-06-02', visits: 40, unique_visitors: 25 },
    { day: '2030-06-03', visits: 12, unique_visitors: 3 },
  ];
  for (const { day, ...counts } of visits) {
    await dynamoDb.send(
      new PutCommand({ TableName: stack.limitCountersTableName, Item: { id: funnelDayId(day), ...counts } }),
    );
  }
  const requests = [
    { requested_at: '2030-06-02T10:00:00.000Z', delivery_status: 'delivered', delivered_at: '2030-06-02T10:00:05Z' },
    {
      requested_at: '2030-06-03T09:00:00.000Z',
      delivery_status: 'complained',
      delivered_at: '2030-06-03T09:00:04Z',
      mail_provider_handoff: { provider: 'kit', result: 'accepted', at: '2030-06-03T09:00:02Z', attempts: 1 },
    },
    { requested_at: '2030-06-03T09:10:00.000Z', delivery_status: 'bounced' },
    { requested_at: '2030-06-03T09:20:00.000Z', delivery_status: 'sent' },
    { requested_at: '2030-06-03T09:30:00.000Z', delivery_status: 'failed' },
    // Older than the days asked for: left out.
    { requested_at: '2030-05-01T09:00:00.000Z', delivery_status: 'delivered' },
    // The canary's: no reader's request.
    { requested_at: '2030-06-03T09:40:00.000Z', delivery_status: 'delivered', canary: true },
  ];
  for (const [index, request] of requests.entries()) {
    await dynamoDb.send(
      new PutCommand({
        TableName: stack.tableName,
        Item: {
          id: `request-${index}`,
          name: 'Ada',
          email: `ada${index}@example.com`,
          cheat_sheet_sent: true,
          ...request,
        },
      }),
    );
  }
});

afterAll(async () => {
  dynamoDb.destroy();
  await stack.stop();
});

async function run(args: string[], options: Partial<LeadsCommandIo> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runLeadsCommand(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += `${text}\n`),
    stdin: Readable.from([]),
    env: process.env,
    now,
    ...options,
  });
  return { code, stdout, stderr };
}

test("funnel --days 2 prints a table, one row a day, oldest first, with the conversion, the canary's request left out", async () => {
  const { code, stdout } = await run(['funnel', '--days', '2']);

  expect(code).toBe(0);
  expect(stdout.split('\n')).toEqual([
    'day         visits  unique visitors  requests  sent  delivered  bounced  complained  handed off  conversion',
    '2030-06-02      40               25         1     1          1        0           0           0          4%',
    '2030-06-03      12                3         4     3          1        1           1           1        133%',
  ]);
});

test('funnel --json gives the same numbers for a machine, and a day with no visitor has no conversion', async () => {
  const { code, stdout } = await run(['funnel', '--days', '3', '--json']);

  expect(code).toBe(0);
  const { days } = JSON.parse(stdout) as { days: Record<string, unknown>[] };
  expect(days.map((day) => [day.day, day.visits, day.requests, day.conversionPercent])).toEqual([
    ['2030-06-01', 0, 0, null],
    ['2030-06-02', 40, 1, 4],
    ['2030-06-03', 12, 4, 133],
  ]);
});

test('funnel shows the last 7 days by default', async () => {
  const { stdout } = await run(['funnel']);

  expect(
    stdout
      .split('\n')
      .slice(1)
      .map((line) => line.slice(0, 10)),
  ).toEqual(['2030-05-28', '2030-05-29', '2030-05-30', '2030-05-31', '2030-06-01', '2030-06-02', '2030-06-03']);
});

test.each([['0'], ['401'], ['two'], ['1.5']])('funnel --days %s is a usage error', async (days) => {
  const { code, stderr } = await run(['funnel', '--days', days]);

  expect(code).toBe(2);
  expect(stderr).toContain('a whole number from 1 to 400');
});

test('--days belongs to funnel alone', async () => {
  const { code, stderr } = await run(['export', '--days', '3']);

  expect(code).toBe(2);
  expect(stderr).toContain('--days and --json are for funnel.');
});
