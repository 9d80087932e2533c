/** The per-address cap's counter, against the local DynamoDB (dynalite). */

import { createHash, createHmac } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { limitCountersExpiryAttribute, limitCountersTableName } from '../../../core/data/tables';
import { addressDailyCapItemId, addressHashKeyFrom } from '../../../core/data/address-hash';
import {
  addressDailyCapExpiry,
  addressDailyCapCounter,
  type AddressDailyCapCounter,
} from '../../../lambdas/limits/address-daily-cap';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

let emulators: HandlerStack;
let quota: AddressDailyCapCounter;

beforeAll(async () => {
  emulators = await startHandlerStack();
  quota = addressDailyCapCounter(
    emulators.dynamoDb,
    emulators.stack.limitCountersTableName,
    emulators.addressKeySource,
  );
});
afterAll(() => emulators?.stop());

const at = new Date('2025-06-01T12:00:00.000Z');
const later = (ms: number) => new Date(at.getTime() + ms);
const dayMs = 24 * 60 * 60 * 1000;
/** The TTL value of an item whose newest send is at `time`: a day later, in epoch seconds. */
const expiryAfter = (time: Date) => Math.ceil((time.getTime() + dayMs) / 1000);

let addressNumber = 0;
const newAddress = () => `quota.${++addressNumber}@example.com`;

async function addressDailyCapItem(email: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await emulators.dynamoDb.send(
    new GetCommand({
      TableName: emulators.stack.limitCountersTableName,
      Key: { id: addressDailyCapItemId(email, emulators.addressKey) },
    }),
  );
  return Item;
}

describe('the per-address cap counter', () => {
  test('gives out as many slots as the limit, then none', async () => {
    const email = newAddress();

    const claims = [];
    for (let send = 0; send < 4; send += 1) claims.push(await quota.takeSlot(email, later(send * 1000), 3));

    expect(claims.slice(0, 3)).toEqual([expect.any(Object), expect.any(Object), expect.any(Object)]);
    expect(claims[3]).toBeNull();
  });

  test('frees a slot once its send is more than 24 hours old, and drops it from the item', async () => {
    const email = newAddress();
    await quota.takeSlot(email, at, 2);
    await quota.takeSlot(email, later(60_000), 2);
    expect(await quota.takeSlot(email, later(dayMs), 2)).toBeNull();

    const claim = await quota.takeSlot(email, later(dayMs + 1), 2);

    expect(claim).not.toBeNull();
    expect((await addressDailyCapItem(email))!.recent_sends).toEqual([
      later(60_000).toISOString(),
      later(dayMs + 1).toISOString(),
    ]);
  });

  test('takes a released slot back into the cap', async () => {
    const email = newAddress();
    await quota.takeSlot(email, at, 2);
    const second = await quota.takeSlot(email, later(1), 2);

    await quota.release(second!);

    expect(await quota.takeSlot(email, later(2), 2)).not.toBeNull();
    expect(await quota.takeSlot(email, later(3), 2)).toBeNull();
  });

  test('keeps one counter per address, whatever its letter case', async () => {
    const email = newAddress();
    await quota.takeSlot(email, at, 1);

    expect(await quota.takeSlot(email.toUpperCase(), later(1), 1)).toBeNull();
    expect(await quota.takeSlot(newAddress(), later(1), 1)).not.toBeNull();
  });

  test("stores neither the address nor a name: the address's HMAC under the run's secret, the sends and their claims' random tokens, a version, an expiry", async () => {
    const email = newAddress();

    const claim = await quota.takeSlot(email, at, 3);

    const item = await addressDailyCapItem(email);
    expect(item).toEqual({
      // As Node computes it: HMAC-SHA-256 under the key derived from CLIENT_ADDRESS_KEY for address hashes.
      id: createHmac(
        'sha256',
        createHmac('sha256', process.env.CLIENT_ADDRESS_KEY!).update('cheat-sheet address hashes').digest(),
      )
        .update(email)
        .digest('hex'),
      recent_sends: [at.toISOString()],
      claims: { [claim!.token]: at.toISOString() },
      version: 1,
      [limitCountersExpiryAttribute]: expiryAfter(at),
    });
    expect(JSON.stringify(item)).not.toContain(email.split('@')[0]);
    expect(item?.id).not.toBe(createHash('sha256').update(email).digest('hex'));
  });

  test('gives a slot back once, however often its release is repeated (the SDK retrying a release whose reply was lost)', async () => {
    const email = newAddress();
    const first = await quota.takeSlot(email, at, 2);
    await quota.takeSlot(email, at, 2);

    await quota.release(first!);
    await quota.release(first!);

    expect((await addressDailyCapItem(email))?.recent_sends).toHaveLength(1);
  });

  test('lives in its own table, cheat_sheet_send_quotas, and writes nothing to the requests table', async () => {
    const email = newAddress();

    await quota.takeSlot(email, at, 3);

    expect(emulators.stack.limitCountersTableName).toBe(limitCountersTableName);
    expect(limitCountersTableName).toBe('cheat_sheet_send_quotas');
    expect(await emulators.items()).toEqual([]);
    expect((await emulators.addressDailyCapItems()).map((item) => item.id)).toContain(
      addressDailyCapItemId(email, emulators.addressKey),
    );
  });

  test('sets the expiry to the newest counted send plus 24 hours on every write, release included', async () => {
    const email = newAddress();
    const first = await quota.takeSlot(email, at, 3);
    expect((await addressDailyCapItem(email))![limitCountersExpiryAttribute]).toBe(expiryAfter(at));

    const second = await quota.takeSlot(email, later(60_000), 3);
    expect((await addressDailyCapItem(email))![limitCountersExpiryAttribute]).toBe(expiryAfter(later(60_000)));

    // A parallel send that read the clock a moment earlier does not pull the expiry back.
    const third = await quota.takeSlot(email, later(30_000), 3);
    expect((await addressDailyCapItem(email))![limitCountersExpiryAttribute]).toBe(expiryAfter(later(60_000)));

    await quota.release(second!);
    expect((await addressDailyCapItem(email))![limitCountersExpiryAttribute]).toBe(expiryAfter(later(30_000)));

    await quota.release(third!);
    await quota.release(first!);
    // Nothing counts any more: the item expires a day after the last send it held.
    expect(await addressDailyCapItem(email)).toMatchObject({
      recent_sends: [],
      [limitCountersExpiryAttribute]: expiryAfter(at),
    });
  });

  test('rounds the expiry up to the next whole second, never before the window ends', () => {
    expect(addressDailyCapExpiry(['2025-06-01T12:00:00.001Z'], dayMs)).toBe(
      Date.parse('2025-06-02T12:00:01.000Z') / 1000,
    );
    expect(addressDailyCapExpiry(['2025-06-01T12:00:00.000Z'], dayMs)).toBe(
      Date.parse('2025-06-02T12:00:00.000Z') / 1000,
    );
  });

  test('of twelve parallel claims against a limit of three, exactly three get a slot', async () => {
    const email = newAddress();

    const claims = await Promise.all(Array.from({ length: 12 }, (_, index) => quota.takeSlot(email, later(index), 3)));

    expect(claims.filter((claim) => claim !== null)).toHaveLength(3);
    expect((await addressDailyCapItem(email))!.recent_sends).toHaveLength(3);
  });
});

describe('the per-address cap counter when DynamoDB misbehaves', () => {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const dynamoMock = mockClient(client);
  const key = addressHashKeyFrom('a deployment secret');
  const keySource = () => Promise.resolve(key);
  afterEach(() => dynamoMock.reset());
  afterAll(() => dynamoMock.restore());

  test('gives up with a storage error when every write loses to another send', async () => {
    dynamoMock.on(GetCommand).resolves({ Item: { id: 'x', recent_sends: [], version: 1, expires_at: 0 } });
    dynamoMock
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));
    const contended = addressDailyCapCounter(client, limitCountersTableName, keySource, {
      maxAttempts: 4,
      pause: async () => {},
    });

    await expect(contended.takeSlot('ada@example.com', at, 3)).rejects.toMatchObject({ kind: 'storageUnavailable' });
    // The first write, made as if the address had no item, then the four read-and-write rounds.
    expect(dynamoMock.commandCalls(UpdateCommand)).toHaveLength(5);
  });

  test('turns an unreachable table into a storage error', async () => {
    const unreachable = Object.assign(new Error('connect ECONNREFUSED'), { name: 'Error' });
    dynamoMock.on(GetCommand).rejects(unreachable);
    dynamoMock.on(UpdateCommand).rejects(unreachable);

    await expect(
      addressDailyCapCounter(client, limitCountersTableName, keySource).takeSlot('ada@example.com', at, 3),
    ).rejects.toMatchObject({ kind: 'storageUnavailable' });
  });

  test("takes a new address's slot with one UpdateItem on the limit counters table, and nothing else: no TTL API", async () => {
    dynamoMock.on(GetCommand).resolves({});
    dynamoMock.on(UpdateCommand).resolves({});

    await addressDailyCapCounter(client, limitCountersTableName, keySource).takeSlot('ada@example.com', at, 3);

    const calls = dynamoMock.calls().map((call) => call.args[0]);
    expect(calls.map((command) => command.constructor.name)).toEqual(['UpdateCommand']);
    expect(calls.map((command) => (command.input as { TableName: string }).TableName)).toEqual([
      limitCountersTableName,
    ]);
    expect(dynamoMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      Key: { id: addressDailyCapItemId('ada@example.com', key) },
      ConditionExpression: 'attribute_not_exists(#id)',
      ExpressionAttributeValues: { ':expiresAt': expiryAfter(at) },
    });
  });

  test('reads an address that has an item, and writes on the version it read', async () => {
    dynamoMock
      .on(UpdateCommand, { ConditionExpression: 'attribute_not_exists(#id)' })
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));
    dynamoMock.on(UpdateCommand, { ConditionExpression: '#version = :current' }).resolves({});
    dynamoMock.on(GetCommand).resolves({ Item: { id: 'x', recent_sends: [], claims: {}, version: 7, expires_at: 0 } });

    await addressDailyCapCounter(client, limitCountersTableName, keySource).takeSlot('ada@example.com', at, 3);

    const calls = dynamoMock.calls().map((call) => call.args[0]);
    expect(calls.map((command) => command.constructor.name)).toEqual(['UpdateCommand', 'GetCommand', 'UpdateCommand']);
    expect(calls[2]!.input).toMatchObject({ ExpressionAttributeValues: { ':current': 7, ':next': 8 } });
  });
});
