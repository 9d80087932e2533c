/**
 * `npm run leads -- unsent` and `resend` against the emulators (dynalite, s3rver, aws-ses-v2-local)
 * through the real SDK, with the functions' own variables: requests saved by the save handler and
 * left unsent are listed, and resent through the send step's limits and claim, one e-mail each
 * however often (or however many at once) `resend` runs.
 */

import { Readable } from 'node:stream';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { runLeadsCommand } from '../../../ops/leads/leads-command';
import { startHandlerStack, type HandlerStack } from '../../lambdas/support/handler-stack';
import { postEvent, saveRoute } from '../../lambdas/support/http-api-events';

let emulators: HandlerStack;
let save: (event: ReturnType<typeof postEvent>) => Promise<unknown>;

beforeAll(async () => {
  emulators = await startHandlerStack();
  save = (await import('../../../lambdas/save-request/handler')).handler;
});
afterAll(() => emulators?.stop());

/** The tool run as if 20 minutes had passed: the requests just saved are unsent "15 minutes after". */
async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runLeadsCommand(args, {
    stdout: (text) => (stdout += `${text}\n`),
    stderr: (text) => (stderr += `${text}\n`),
    stdin: Readable.from([]),
    env: process.env,
    now: () => new Date(Date.now() + 20 * 60_000),
  });
  return { code, stdout, stderr };
}

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.resend.${visitorNumber}@example.com` });

test('unsent lists the requests saved and never sent; resend sends each once, and a second run sends nothing', async () => {
  const first = newVisitor();
  const second = newVisitor();
  await save(postEvent(saveRoute, first));
  await save(postEvent(saveRoute, second));

  const listed = await run(['unsent']);
  const firstRun = await run(['resend', '--yes']);
  const secondRun = await run(['resend', '--yes']);

  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain(first.email);
  expect(listed.stdout).toContain(second.email);
  expect([firstRun.code, secondRun.code]).toEqual([0, 0]);
  expect(firstRun.stdout).toContain('Sent 2 e-mail(s)');
  expect(secondRun.stdout).toContain('Sent 0 e-mails');
  expect(await emulators.emails(first.email)).toHaveLength(1);
  expect(await emulators.emails(second.email)).toHaveLength(1);
  expect((await emulators.items(first.email))[0]).toMatchObject({ delivery_status: 'sent', cheat_sheet_sent: true });
  expect((await run(['unsent'])).stdout).not.toContain(first.email);
});

test('two resends at once still send one e-mail per request', async () => {
  const visitor = newVisitor();
  await save(postEvent(saveRoute, visitor));

  const runs = await Promise.all([run(['resend', '--yes']), run(['resend', '--yes'])]);

  expect(runs.map(({ code }) => code)).toEqual([0, 0]);
  expect(await emulators.emails(visitor.email)).toHaveLength(1);
});

test('a request whose send may have reached SES (unknown, or stuck sending) is listed but never resent', async () => {
  const visitor = newVisitor();
  const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000).toISOString();
  for (const status of ['unknown', 'sending']) {
    await emulators.dynamoDb.send(
      new PutCommand({
        TableName: emulators.stack.tableName,
        Item: {
          id: `${status}-${visitor.email}`,
          ...visitor,
          cheat_sheet_sent: false,
          requested_at: twentyMinutesAgo,
          delivery_status: status,
        },
      }),
    );
  }

  const listed = await run(['unsent']);
  await run(['resend', '--yes']);

  expect(listed.stdout).toContain(`sending  ${visitor.email}`);
  expect(await emulators.emails(visitor.email)).toEqual([]);
});

test('resend goes through the same limits: a suppressed mailbox is refused, reported, and sent nothing', async () => {
  const visitor = newVisitor();
  await save(postEvent(saveRoute, visitor));
  const { suppressionList } = await import('../../../lambdas/mail/suppressions');
  await suppressionList(emulators.dynamoDb, emulators.stack.limitCountersTableName).suppress(
    visitor.email,
    'bounce',
    new Date(),
  );

  const result = await run(['resend', '--yes']);

  expect(result.code).toBe(1);
  expect(result.stdout).toContain('not sent (address_suppressed)');
  expect(await emulators.emails(visitor.email)).toEqual([]);
  expect((await emulators.items(visitor.email))[0]).toMatchObject({
    delivery_status: 'failed',
    failure_code: 'address_suppressed',
  });
});

test('resend without --yes asks first, and sends nothing when the answer is not yes', async () => {
  const visitor = newVisitor();
  await save(postEvent(saveRoute, visitor));

  const result = await run(['resend']);

  expect(result.code).toBe(1);
  expect(result.stderr).toContain('Nothing sent.');
  expect(await emulators.emails(visitor.email)).toEqual([]);
});
