/**
 * `npm run leads -- stuck list` and `stuck clear` against the emulators (dynalite, s3rver,
 * aws-ses-v2-local) through the real SDK: requests left `sending` for a day are listed, marked
 * `unknown` (never resent) or `failed` (then `resend` sends each once), and a request a send took
 * meanwhile, or one not yet a day old, is left as it is.
 */

import { Readable } from 'node:stream';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { unsentIndex, type CheatSheetRequestItem } from '../../../core/data/tables';
import { runLeadsCommand } from '../../../ops/leads/leads-command';
import { clearedFailureCode, clearStuckRequests } from '../../../ops/leads/stuck-requests';
import { startHandlerStack, type HandlerStack } from '../../lambdas/support/handler-stack';

let emulators: HandlerStack;
beforeAll(async () => {
  emulators = await startHandlerStack();
});
afterAll(() => emulators?.stop());

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runLeadsCommand(args, {
    stdout: (text) => (stdout += `${text}\n`),
    stderr: (text) => (stderr += `${text}\n`),
    stdin: Readable.from([]),
    env: process.env,
  });
  return { code, stdout, stderr };
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60_000).toISOString();
let requestNumber = 0;

/** A request a send claimed `hours` ago and never settled, as the send path leaves it. */
async function putSending(hours: number): Promise<CheatSheetRequestItem> {
  const number = ++requestNumber;
  const item = {
    id: `stuck-${number}`,
    name: `Ada Stuck ${number}`,
    email: `ada.stuck.${number}@example.com`,
    cheat_sheet_sent: false,
    requested_at: hoursAgo(hours),
    delivery_status: 'sending',
    status_at: hoursAgo(hours),
    sending_at: hoursAgo(hours),
    send_token: `token-${number}`,
    [unsentIndex.partitionKey]: unsentIndex.value,
  } as CheatSheetRequestItem;
  await emulators.dynamoDb.send(new PutCommand({ TableName: emulators.stack.tableName, Item: item }));
  return item;
}

async function stored(id: string) {
  const { Item } = await emulators.dynamoDb.send(
    new GetCommand({ TableName: emulators.stack.tableName, Key: { id }, ConsistentRead: true }),
  );
  return Item as CheatSheetRequestItem & Record<string, unknown>;
}

test('stuck list shows the requests sending for a day or more, and not one sending for two hours', async () => {
  const old = await putSending(25);
  const recent = await putSending(2);

  const { code, stdout } = await run(['stuck', 'list']);

  expect(code).toBe(0);
  expect(stdout).toContain(`(id ${old.id})`);
  expect(stdout).not.toContain(`(id ${recent.id})`);
});

test('stuck clear --as failed lets resend send it, once: a second resend sends nothing', async () => {
  const item = await putSending(30);

  const cleared = await run(['stuck', 'clear', item.id, '--as', 'failed', '--yes']);
  const firstResend = await run(['resend', '--yes']);
  const secondResend = await run(['resend', '--yes']);

  expect(cleared.code).toBe(0);
  expect([firstResend.code, secondResend.code]).toEqual([0, 0]);
  expect(await emulators.emails(item.email)).toHaveLength(1);
  expect(await stored(item.id)).toMatchObject({ delivery_status: 'sent', stuck_cleared_at: expect.any(String) });
});

test('stuck clear --as unknown takes it out of the unsent requests: resend never sends it', async () => {
  const item = await putSending(48);

  const cleared = await run(['stuck', 'clear', '--older-than', '47h', '--as', 'unknown', '--yes']);
  await run(['resend', '--yes']);

  expect(cleared.code).toBe(0);
  expect(await stored(item.id)).toMatchObject({ delivery_status: 'unknown', unknown_at: expect.any(String) });
  expect((await stored(item.id))[unsentIndex.partitionKey]).toBeUndefined();
  expect(await emulators.emails(item.email)).toEqual([]);
});

test('stuck clear marks a request failed with a fault of ours, which unsent lists as resendable', async () => {
  const item = await putSending(26);

  await run(['stuck', 'clear', item.id, '--as', 'failed', '--yes']);

  expect(await stored(item.id)).toMatchObject({ delivery_status: 'failed', failure_code: clearedFailureCode });
  expect((await run(['unsent'])).stdout).toMatch(
    new RegExp(`failed \\(${clearedFailureCode}\\).*\\(id ${item.id}\\)$`, 'm'),
  );
});

test('a request a send took since it was read is left as that send holds it', async () => {
  const asRead = await putSending(30);
  await emulators.dynamoDb.send(
    new PutCommand({
      TableName: emulators.stack.tableName,
      Item: { ...asRead, send_token: 'a-later-send', sending_at: hoursAgo(0) },
    }),
  );

  const cleared = await clearStuckRequests(
    emulators.dynamoDb,
    emulators.stack.tableName,
    [asRead],
    'failed',
    new Date(),
  );

  expect(cleared).toEqual([]);
  expect(await stored(asRead.id)).toMatchObject({ delivery_status: 'sending', send_token: 'a-later-send' });
});

test('a request sending for less than a day is not cleared, even by its id: exit 1, and it stays sending', async () => {
  const item = await putSending(3);

  const { code, stderr } = await run(['stuck', 'clear', item.id, '--as', 'failed', '--yes']);

  expect(code).toBe(1);
  expect(stderr).toContain(`${item.id}: not a request stuck sending for a day or more`);
  expect(await stored(item.id)).toMatchObject({ delivery_status: 'sending' });
});

test('stuck clear without --as, or with both ids and --older-than, is a usage error (exit 2)', async () => {
  expect((await run(['stuck', 'clear', 'some-id'])).code).toBe(2);
  expect((await run(['stuck', 'clear', 'some-id', '--older-than', '2d', '--as', 'unknown'])).code).toBe(2);
  expect((await run(['stuck', 'list', '--older-than', '2 days'])).code).toBe(2);
});
