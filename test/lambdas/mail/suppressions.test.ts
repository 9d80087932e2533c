/**
 * The suppression list, against the local DynamoDB (dynalite): one item per mailbox, never an
 * address, under an id keyed with the deployment's secret; entries under the legacy plain SHA-256
 * id still refuse their mailbox.
 */

import { createHash } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { addressHashKeyFrom } from '../../../core/data/address-hash';
import {
  legacySuppressionIdOf,
  suppressionIdOf,
  suppressionList,
  type Suppressions,
} from '../../../lambdas/mail/suppressions';
import { closedPortUrl } from '../support/closed-port';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

let emulators: HandlerStack;
let suppressions: Suppressions;

beforeAll(async () => {
  emulators = await startHandlerStack();
  suppressions = suppressionList(
    emulators.dynamoDb,
    emulators.stack.limitCountersTableName,
    emulators.addressKeySource,
  );
});
afterAll(() => emulators?.stop());

const at = new Date('2025-06-01T12:00:00.000Z');
let mailboxNumber = 0;
const newMailbox = () => `reader${++mailboxNumber}`;

async function itemOf(email: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await emulators.dynamoDb.send(
    new GetCommand({
      TableName: emulators.stack.limitCountersTableName,
      Key: { id: suppressionIdOf(email, emulators.addressKey) },
    }),
  );
  return Item;
}

test('a mailbox nobody suppressed is not suppressed', async () => {
  expect(await suppressions.isSuppressed(`${newMailbox()}@example.com`)).toBe(false);
});

test('a suppressed mailbox is suppressed under every spelling that reaches it: case, +tag, Gmail dots', async () => {
  const mailbox = newMailbox();
  await suppressions.suppress(`${mailbox}@gmail.com`, 'bounce', at);

  expect(await suppressions.isSuppressed(`${mailbox}@gmail.com`)).toBe(true);
  expect(await suppressions.isSuppressed(`${mailbox.toUpperCase()}+book@GMAIL.com`)).toBe(true);
  expect(await suppressions.isSuppressed(`${mailbox.slice(0, 3)}.${mailbox.slice(3)}@googlemail.com`)).toBe(true);
  expect(await suppressions.isSuppressed(`${mailbox}@example.com`)).toBe(false);
});

test('stores no address: the item holds its keyed id, the reason, the time and its keying only', async () => {
  const email = `${newMailbox()}@example.com`;
  await suppressions.suppress(email, 'complaint', at);

  const item = await itemOf(email);
  expect(item).toEqual({
    id: suppressionIdOf(email, emulators.addressKey),
    reason: 'complaint',
    suppressed_at: at.toISOString(),
    keying: 'hmac-sha256',
  });
  expect(JSON.stringify(item)).not.toContain(email.split('@')[0]);
});

test('the id is no hash anyone holding the address can compute: not its SHA-256, and another secret gives another id', async () => {
  const email = `${newMailbox()}@example.com`;
  await suppressions.suppress(email, 'bounce', at);

  const id = (await itemOf(email))?.id;
  expect(id).not.toBe(`suppressed#${createHash('sha256').update(email).digest('hex')}`);
  expect(id).not.toBe(suppressionIdOf(email, addressHashKeyFrom('another deployment')));
});

test('an entry written before the ids were keyed (plain SHA-256, no keying) still suppresses its mailbox', async () => {
  const mailbox = newMailbox();
  await emulators.dynamoDb.send(
    new PutCommand({
      TableName: emulators.stack.limitCountersTableName,
      Item: { id: legacySuppressionIdOf(`${mailbox}@example.com`), reason: 'bounce', suppressed_at: at.toISOString() },
    }),
  );

  expect(await suppressions.isSuppressed(`${mailbox}+book@example.com`)).toBe(true);
});

test('suppressing a mailbox again keeps the first reason and time', async () => {
  const email = `${newMailbox()}@example.com`;
  await suppressions.suppress(email, 'bounce', at);
  await suppressions.suppress(email, 'complaint', new Date(at.getTime() + 60_000));

  expect(await itemOf(email)).toMatchObject({ reason: 'bounce', suppressed_at: at.toISOString() });
});

test('an unreachable DynamoDB is storageUnavailable, for the check and for the write', async () => {
  const unreachable = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: await closedPortUrl(),
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      maxAttempts: 1,
    }),
  );
  try {
    const list = suppressionList(unreachable, emulators.stack.limitCountersTableName, emulators.addressKeySource);

    await expect(list.isSuppressed('ada@example.com')).rejects.toMatchObject({ kind: 'storageUnavailable' });
    await expect(list.suppress('ada@example.com', 'bounce', at)).rejects.toMatchObject({ kind: 'storageUnavailable' });
  } finally {
    unreachable.destroy();
  }
});
