/**
 * `npm run leads -- erase` leaves nothing it can reach: the requests a reader's submissions wrote
 * through the real handlers, their idempotency records on both routes (found through the key each
 * request stores), the mailbox's send counter and its suppression entry, and the SES suppression
 * list; and it reports a removal that failed as failed, never as "not there". Against the
 * emulators through the real SDK, with a stand-in SES for the suppression list.
 */

import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { EventBridgeEvent } from 'aws-lambda';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { addressDailyCapItemId } from '../../../core/data/address-hash';
import { suppressionIdOf } from '../../../lambdas/mail/suppressions';
import { idempotencyTableName } from '../../../core/data/tables';
import type { SesEventRecord } from '../../../lambdas/ses-events/ses-events';
import { runLeadsCommand } from '../../../ops/leads/leads-command';
import { documented, type Handler } from '../../lambdas/support/documented-handler';
import { startHandlerStack, type HandlerStack } from '../../lambdas/support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../../lambdas/support/http-api-events';
import { startStandInSes } from './stand-in-ses';

let emulators: HandlerStack;
let save: Handler;
let send: Handler;
let sesEvents: (event: EventBridgeEvent<string, SesEventRecord>) => Promise<unknown>;

beforeAll(async () => {
  emulators = await startHandlerStack();
  save = documented((await import('../../../lambdas/save-request/handler')).handler);
  send = documented((await import('../../../lambdas/send-cheat-sheet/handler')).handler);
  sesEvents = (await import('../../../lambdas/ses-events/handler')).handler;
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Erased ${++visitorNumber}`, email: `ada.erased.${visitorNumber}@example.com` });
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

async function scan(table: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await emulators.dynamoDb.send(new ScanCommand({ TableName: table }));
  return Items;
}

/** `erase <email> --yes` with a stand-in SES for the suppression list; `failing` spellings answer 500. */
async function erase(
  email: string,
  { onList = [] as string[], failing = [] as string[], env = process.env as NodeJS.ProcessEnv } = {},
) {
  const ses = await startStandInSes(onList, { failing });
  let stdout = '';
  let stderr = '';
  try {
    const code = await runLeadsCommand(['erase', email, '--yes'], {
      stdout: (text) => (stdout += `${text}\n`),
      stderr: (text) => (stderr += `${text}\n`),
      stdin: Readable.from([]),
      env,
      clients: () => ({
        dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
        cloudFormation: new CloudFormationClient({}),
        ses: new SESv2Client({ endpoint: ses.url }),
      }),
    });
    return { code, stdout, stderr, ses };
  } finally {
    await ses.close();
  }
}

/** A reader's submission through the page's two calls under one key: saved and sent. */
async function submitted(visitor: { name: string; email: string }) {
  const key = randomUUID();
  const saved = replyJson(await save(postEvent(saveRoute, visitor, withKey(key))));
  expect((await send(postEvent(sendRoute, visitor, withKey(key)))).statusCode).toBe(200);
  return { key, id: saved.id as string };
}

/** The mailbox bounced for good: SES's event as EventBridge hands it over. */
async function bounced(id: string, email: string) {
  await sesEvents({
    version: '0',
    id: `event-${randomUUID()}`,
    'detail-type': 'Email Bounced',
    source: 'aws.ses',
    account: '123456789012',
    time: new Date().toISOString(),
    region: 'us-east-1',
    resources: [],
    detail: {
      eventType: 'Bounce',
      mail: { timestamp: new Date().toISOString(), destination: [email], tags: { request_id: [id] } },
      bounce: {
        bounceType: 'Permanent',
        timestamp: new Date().toISOString(),
        bouncedRecipients: [{ emailAddress: email }],
      },
    },
  });
}

test("removes the address's idempotency records on both routes, and no one else's", async () => {
  const visitor = newVisitor();
  const other = newVisitor();
  await submitted(visitor);
  await submitted(visitor);
  await submitted(other);
  const before = await scan(idempotencyTableName);

  const { code, stdout } = await erase(visitor.email);

  expect(code).toBe(0);
  const after = await scan(idempotencyTableName);
  expect(before.length - after.length).toBe(4);
  expect(stdout).toContain('4 idempotency record(s)');
  // The other reader's two records stay: a repeat of their key still replays, sending nothing.
  expect(after.length).toBeGreaterThanOrEqual(2);
  expect(await emulators.items(visitor.email)).toEqual([]);
  expect(await emulators.items(other.email)).toHaveLength(1);
});

test("removes the mailbox's suppression entry, so nothing of the address is left in the counters' table", async () => {
  const visitor = newVisitor();
  const { id } = await submitted(visitor);
  await bounced(id, visitor.email);
  const suppressedBefore = (await scan(emulators.stack.limitCountersTableName)).filter((item) =>
    String(item.id).startsWith('suppressed#'),
  );

  const { code, stdout } = await erase(visitor.email.replace('@', '+again@'));

  expect(code).toBe(0);
  expect(stdout).toContain('its suppression entry');
  const suppressedAfter = (await scan(emulators.stack.limitCountersTableName)).filter((item) =>
    String(item.id).startsWith('suppressed#'),
  );
  expect(suppressedBefore.length - suppressedAfter.length).toBe(1);
  // Erased means unknown: the address may ask again, and is stored like any new one.
  expect((await save(postEvent(saveRoute, visitor))).statusCode).toBe(201);
});

/** Items as a store written before the ids were keyed holds them: plain SHA-256 of the address. */
async function putLegacyItems(email: string) {
  const sha256 = createHash('sha256').update(email).digest('hex');
  const legacy = [
    { id: `suppressed#${sha256}`, reason: 'bounce', suppressed_at: '2025-06-01T12:00:00.000Z' },
    { id: sha256, recent_sends: ['2025-06-01T12:00:00.000Z'], version: 1, expires_at: 1 },
  ];
  for (const Item of legacy) {
    await emulators.dynamoDb.send(new PutCommand({ TableName: emulators.stack.limitCountersTableName, Item }));
  }
  return legacy.map((item) => item.id);
}

test('removes the suppression entry and the send counter under their keyed ids and their legacy plain SHA-256 ones', async () => {
  const visitor = newVisitor();
  const { id } = await submitted(visitor);
  await bounced(id, visitor.email);
  const legacyIds = await putLegacyItems(visitor.email);
  const keyedIds = [
    suppressionIdOf(visitor.email, emulators.addressKey),
    addressDailyCapItemId(visitor.email, emulators.addressKey),
  ];
  const idsBefore = (await scan(emulators.stack.limitCountersTableName)).map((item) => item.id);
  expect(idsBefore).toEqual(expect.arrayContaining([...keyedIds, ...legacyIds]));

  const { code, stdout } = await erase(visitor.email);

  expect(code).toBe(0);
  expect(stdout).toContain('its 2 send counters');
  const idsAfter = (await scan(emulators.stack.limitCountersTableName)).map((item) => item.id);
  for (const gone of [...keyedIds, ...legacyIds]) expect(idsAfter).not.toContain(gone);
  expect(idsBefore.length - idsAfter.length).toBe(4);
});

test('without the deployment secret it removes what it can, reports the keyed ids as not looked for, and exits 1', async () => {
  const visitor = newVisitor();
  const { id } = await submitted(visitor);
  await bounced(id, visitor.email);
  const legacyIds = await putLegacyItems(visitor.email);
  const secretVariables = ['CLIENT_ADDRESS_SOURCE', 'CLIENT_ADDRESS_KEY', 'ORIGIN_SECRET_ARN'];
  const withoutSecret = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !secretVariables.includes(name)),
  );

  const { code, stderr } = await erase(visitor.email, { env: withoutSecret });

  expect(code).toBe(1);
  expect(stderr).toContain('Could not remove the send counters and suppression entry under keyed ids');
  expect(stderr).toContain('no deployment secret is named');
  const idsAfter = (await scan(emulators.stack.limitCountersTableName)).map((item) => item.id);
  for (const gone of legacyIds) expect(idsAfter).not.toContain(gone);
  // What it could not compute is still there, and a run with the secret removes it.
  expect(idsAfter).toContain(suppressionIdOf(visitor.email, emulators.addressKey));
  expect(await emulators.items(visitor.email)).toEqual([]);
  expect((await erase(visitor.email)).code).toBe(0);
  expect((await scan(emulators.stack.limitCountersTableName)).map((item) => item.id)).not.toContain(
    suppressionIdOf(visitor.email, emulators.addressKey),
  );
});

test('every SES removal failing is reported as failed, never as "not on the list", and exits 1', async () => {
  const visitor = newVisitor();
  await submitted(visitor);

  const { code, stdout, stderr } = await erase(visitor.email, { failing: [visitor.email] });

  expect(code).toBe(1);
  expect(stdout).not.toContain('the address was not on it');
  expect(stdout).toContain('SES suppression list: could not check 1 spelling(s)');
  expect(stderr).toContain(`aws sesv2 delete-suppressed-destination --email-address ${visitor.email}`);
  // The table's items are erased all the same.
  expect(await emulators.items(visitor.email)).toEqual([]);
});

/** `rekey` as the operator runs it: the functions' variables name the deployment's secret. */
async function rekey() {
  let stdout = '';
  let stderr = '';
  const code = await runLeadsCommand(['rekey'], {
    stdout: (text) => (stdout += `${text}\n`),
    stderr: (text) => (stderr += `${text}\n`),
    stdin: Readable.from([]),
    env: process.env,
    clients: () => ({
      dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({})),
      cloudFormation: new CloudFormationClient({}),
      ses: new SESv2Client({}),
    }),
  });
  return { code, stdout, stderr };
}

test('rekey moves a legacy suppression entry of a stored address to its keyed id, still refused, and leaves an unmatched one', async () => {
  const visitor = newVisitor();
  await submitted(visitor);
  const [legacySuppression] = await putLegacyItems(visitor.email);
  const stranger = `never.stored.${randomUUID()}@example.com`;
  const [strangerSuppression] = await putLegacyItems(stranger);

  const { code, stdout } = await rekey();

  expect(code).toBe(0);
  expect(stdout).toMatch(/Moved [1-9]\d* suppression entr(y|ies) to keyed ids; [1-9]\d* legacy entr/);
  const items = await scan(emulators.stack.limitCountersTableName);
  const ids = items.map((item) => item.id);
  expect(ids).not.toContain(legacySuppression);
  expect(items.find((item) => item.id === suppressionIdOf(visitor.email, emulators.addressKey))).toEqual({
    id: suppressionIdOf(visitor.email, emulators.addressKey),
    reason: 'bounce',
    suppressed_at: '2025-06-01T12:00:00.000Z',
    keying: 'hmac-sha256',
  });
  expect(ids).toContain(strangerSuppression);
  // Moved, not lifted: the mailbox is still refused, and a second run has nothing of it to move.
  const again = await send(postEvent(sendRoute, visitor));
  expect([again.statusCode, replyJson(again).code]).toEqual([400, 'address_suppressed']);
  expect((await rekey()).stdout).toMatch(/^Moved 0 suppression entries/);
});
