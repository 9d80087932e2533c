/** The per-client and send-budget counters, against the local DynamoDB (dynalite). */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  hourlyWindow,
  counterExpiry,
  counterItemId,
  dailySendBudgetWindow,
  rollingCounter,
  type RollingCounter,
} from '../../../lambdas/limits/rolling-counter';
import { closedPortUrl } from '../support/closed-port';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';

let emulators: HandlerStack;
let hourly: RollingCounter;
let daily: RollingCounter;

beforeAll(async () => {
  emulators = await startHandlerStack();
  hourly = rollingCounter(emulators.dynamoDb, emulators.stack.limitCountersTableName, hourlyWindow);
  daily = rollingCounter(emulators.dynamoDb, emulators.stack.limitCountersTableName, dailySendBudgetWindow);
});
afterAll(() => emulators?.stop());

const minuteMs = 60_000;
/** Two minutes into a 5-minute bucket. */
const at = new Date('2025-06-01T12:02:00.000Z');
const later = (ms: number) => new Date(at.getTime() + ms);

let subjectNumber = 0;
const newSubject = () => `client#test-${++subjectNumber}`;

async function item(id: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await emulators.dynamoDb.send(
    new GetCommand({ TableName: emulators.stack.limitCountersTableName, Key: { id }, ConsistentRead: true }),
  );
  return Item;
}

async function claimsOf(counter: RollingCounter, subject: string, times: Date[], limit: number) {
  const claims = [];
  for (const time of times) claims.push(await counter.count(subject, time, limit));
  return claims;
}

describe('a rolling counter', () => {
  test('lets exactly the limit through when claims for one subject arrive in parallel', async () => {
    const subject = newSubject();

    const claims = await Promise.all(Array.from({ length: 15 }, () => hourly.count(subject, at, 10)));

    expect(claims.filter((claim) => claim !== null)).toHaveLength(10);
    expect(await item(counterItemId(subject, Math.floor(at.getTime() / (5 * minuteMs)), hourlyWindow))).toEqual(
      expect.objectContaining({ sends: 10 }),
    );
  });

  test('counts each subject on its own', async () => {
    const [first, second] = [newSubject(), newSubject()];
    await claimsOf(hourly, first, [at, at], 2);

    expect(await hourly.count(first, at, 2)).toBeNull();
    expect(await hourly.count(second, at, 2)).not.toBeNull();
  });

  test('counts sends of earlier buckets for the whole hour, and frees them after it', async () => {
    const subject = newSubject();
    // 12:02 and 12:34: two buckets of the window.
    await claimsOf(hourly, subject, [at, later(32 * minuteMs)], 2);

    // 12:59: still within the hour of the 12:02 send.
    expect(await hourly.count(subject, later(57 * minuteMs), 2)).toBeNull();
    // 13:05, the start of the bucket twelve after 12:00-12:05: the 12:02 send no longer counts.
    expect(await hourly.count(subject, new Date('2025-06-01T13:05:00.000Z'), 2)).not.toBeNull();
  });

  test('counts a send for at least the window, never letting more than the limit into any 60 minutes', async () => {
    const subject = newSubject();
    await hourly.count(subject, new Date('2025-06-01T12:04:59.000Z'), 1);

    // 59 minutes 59 seconds later it still counts; 60 minutes 1 second later it no longer does.
    expect(await hourly.count(subject, new Date('2025-06-01T13:04:58.000Z'), 1)).toBeNull();
    expect(await hourly.count(subject, new Date('2025-06-01T13:05:00.000Z'), 1)).not.toBeNull();
  });

  test('seals the bucket before, so a claim from a clock a moment behind counts in the newer bucket', async () => {
    const subject = newSubject();
    const bucketStart = new Date('2025-06-01T12:05:00.000Z');
    // A claim at 12:05:00 seals 12:00-12:05 before reading it.
    await hourly.count(subject, bucketStart, 2);
    const sealedBucket = Math.floor(bucketStart.getTime() / (5 * minuteMs)) - 1;
    expect(await item(counterItemId(subject, sealedBucket, hourlyWindow))).toEqual(
      expect.objectContaining({ sealed: true }),
    );

    // A container whose clock still says 12:04:59 claims: it lands in 12:05-12:10, not the sealed bucket.
    const claim = await hourly.count(subject, new Date('2025-06-01T12:04:59.900Z'), 2);

    expect(claim).toEqual({
      id: counterItemId(subject, sealedBucket + 1, hourlyWindow),
      token: expect.any(String),
    });
    expect(await item(counterItemId(subject, sealedBucket, hourlyWindow))).not.toHaveProperty('sends');
    expect(await hourly.count(subject, bucketStart, 2)).toBeNull();
  });

  test('gives a send back once, however often its release is repeated (the SDK retrying a release whose reply was lost)', async () => {
    const subject = newSubject();
    const [first] = await claimsOf(hourly, subject, [at, at], 2);

    await hourly.release(first!);
    await hourly.release(first!);

    expect(await hourly.count(subject, at, 2)).not.toBeNull();
    expect(await hourly.count(subject, at, 2)).toBeNull();
  });

  test('gives a released send back', async () => {
    const subject = newSubject();
    const [first] = await claimsOf(hourly, subject, [at, at], 2);

    await hourly.release(first!);

    expect(await hourly.count(subject, at, 2)).not.toBeNull();
    expect(await hourly.count(subject, at, 2)).toBeNull();
  });

  test('ignores a release with nothing left to give back', async () => {
    await expect(
      hourly.release({ id: `${newSubject()}#2025-06-01T12:00:00.000Z`, token: 'never-claimed' }),
    ).resolves.toBeUndefined();
  });

  test("stores counts, the claims' random tokens and an expiry only: the bucket ends, plus the window", async () => {
    const subject = newSubject();
    const bucket = Math.floor(at.getTime() / (5 * minuteMs));

    const claim = await hourly.count(subject, at, 5);

    expect(await item(counterItemId(subject, bucket, hourlyWindow))).toEqual({
      id: `${subject}#2025-06-01T12:00:00.000Z`,
      sends: 1,
      claims: new Set([claim!.token]),
      expires_at: Date.parse('2025-06-01T13:05:00.000Z') / 1000,
    });
    expect(counterExpiry(bucket, hourlyWindow)).toBe(Date.parse('2025-06-01T13:05:00.000Z') / 1000);
  });

  /** An hourly counter whose DynamoDB client records the name of each command it sends. */
  function recordingCounter() {
    const sent: string[] = [];
    const recording = {
      send: (command: { constructor: { name: string } }) => {
        sent.push(command.constructor.name);
        return emulators.dynamoDb.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    return { sent, counter: rollingCounter(recording, emulators.stack.limitCountersTableName, hourlyWindow) };
  }

  test("seals and reads the earlier buckets once per bucket: a container's later counts there are one write each", async () => {
    const subject = newSubject();
    const { sent, counter } = recordingCounter();

    await counter.count(subject, at, 5);
    await counter.count(subject, later(1000), 5);
    await counter.count(subject, later(2000), 5);

    expect(sent).toEqual(['UpdateCommand', 'BatchGetCommand', 'UpdateCommand', 'UpdateCommand', 'UpdateCommand']);
  });

  test('prepares two subjects with one read of both: their counts then write only, each within its own limit', async () => {
    const [client, network] = [newSubject(), newSubject()];
    await claimsOf(hourly, network, [later(-10 * minuteMs)], 5);
    const { sent, counter } = recordingCounter();

    await counter.prepare([client, network], at);
    const counted = [await counter.count(client, at, 1), await counter.count(network, at, 1)];

    expect(sent).toEqual(['UpdateCommand', 'UpdateCommand', 'BatchGetCommand', 'UpdateCommand']);
    // The network's earlier send fills its limit of 1; the client's own is free.
    expect(counted.map((entry) => entry !== null)).toEqual([true, false]);
  });

  test('a send released in an earlier bucket makes room from the next bucket on, never letting one more through', async () => {
    const subject = newSubject();
    // 12:02, then the limit reached at 12:07 (the next bucket).
    const [early] = await claimsOf(hourly, subject, [at], 2);
    await claimsOf(hourly, subject, [later(5 * minuteMs)], 2);
    expect(await hourly.count(subject, later(5 * minuteMs), 2)).toBeNull();

    await hourly.release(early!);

    // This container read 12:00-12:05 for the bucket of 12:07: still full there, as if the release had not come.
    expect(await hourly.count(subject, later(6 * minuteMs), 2)).toBeNull();
    // 12:12, the bucket after: read again, the room is there, and only one.
    expect(await hourly.count(subject, later(10 * minuteMs), 2)).not.toBeNull();
    expect(await hourly.count(subject, later(10 * minuteMs), 2)).toBeNull();
  });

  test('the daily budget counts sends for 24 hours in hourly buckets', async () => {
    const subject = `budget-test-${++subjectNumber}`;
    await claimsOf(daily, subject, [at, later(5 * 60 * minuteMs)], 2);

    expect(await daily.count(subject, later(23 * 60 * minuteMs), 2)).toBeNull();
    // 2025-06-02 13:00: the bucket of the 12:02 send (12:00-13:00) is out of the window.
    expect(await daily.count(subject, new Date('2025-06-02T13:00:00.000Z'), 2)).not.toBeNull();
  });

  test('turns an unreachable DynamoDB into StorageUnavailableError', async () => {
    const unreachable = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: await closedPortUrl(),
        region: 'us-east-1',
        credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
        maxAttempts: 1,
      }),
    );
    try {
      const counter = rollingCounter(unreachable, emulators.stack.limitCountersTableName, hourlyWindow);

      await expect(counter.count(newSubject(), at, 1)).rejects.toMatchObject({ kind: 'storageUnavailable' });
    } finally {
      unreachable.destroy();
    }
  });
});
