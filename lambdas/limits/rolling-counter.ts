/**
 * A limit over a rolling window (the per-client hourly limit, the daily send budget), counted
 * atomically before SES is called, in the limit counters table (`core/data/tables.ts`).
 *
 * The window is cut into buckets, one item each, holding the sends counted in it. Counting a
 * send or save (`count`) at time t, in bucket b:
 *
 * 1. seals bucket b-1 (a flag on its item), so no send can be counted there any more;
 * 2. reads the window's earlier buckets, b-N to b-1 (N = window / bucket), consistently;
 * 3. adds one to bucket b with a single conditional write: only while b holds fewer than
 *    `limit` minus those earlier sends, and only if b is not sealed.
 *
 * Step 3 is atomic, so parallel counts in one bucket can never overshoot; step 1 makes step 2's
 * total final (a count still under way in bucket b-1, from a container whose clock is a moment
 * behind, finds b-1 sealed and counts in b instead). Older buckets only change by releases,
 * which lower them. So the sends of any N + 1 consecutive buckets never exceed the limit, and
 * any window-long stretch of time lies within N + 1 buckets: a send counts for at least the
 * window and at most the window plus one bucket (60 to 65 minutes for the client limit).
 * Steps 1 and 2 are taken by a container's first count in a bucket; its later counts there reuse
 * the total (earlierTotals, below): one call a count instead of three.
 *
 * Unlike the daily cap's version-checked list (address-daily-cap.ts), a count never retries under
 * contention: DynamoDB serialises the one conditional update. That matters for the budget,
 * which every send of the product touches at once.
 *
 * Each counted send carries a token of its own, added to the bucket's `claims` set by the same write that
 * counts it, and the write's condition refuses a token already there. So when the SDK retries a
 * count whose reply was lost (a timeout after DynamoDB wrote it), the retry fails its condition,
 * and the consistent read that follows finds its own token: the send counts once. A release
 * removes the token with the send, and only while the token is there, so a retried release gives
 * back one send, not two. (16 characters a send: a bucket's 400 KB item holds some 20,000, far
 * more than any bucket's limit.)
 *
 * Operations dynalite has: UpdateItem (conditional, ADD), GetItem and BatchGetItem (strongly
 * consistent). Every SDK failure becomes a `storageUnavailable` ProductError.
 */

import { randomBytes } from 'node:crypto';
import { BatchGetCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ProductError } from '../runtime/errors';
import {
  limitCountersExpiryAttribute,
  limitCountersPartitionKey,
  type RollingCounterItem,
} from '../../core/data/tables';

export interface RollingWindow {
  /** How long a send counts, at least. */
  readonly windowMs: number;
  /** The buckets' length; windowMs is a whole number of them. A send counts at most windowMs + bucketMs. */
  readonly bucketMs: number;
}

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;

/** The per-client limit: an hour, in 5-minute buckets (13 items read or written per count at most). */
export const hourlyWindow: RollingWindow = { windowMs: hourMs, bucketMs: 5 * minuteMs };

/** The send budget: 24 hours, in 1-hour buckets (25 items). */
export const dailySendBudgetWindow: RollingWindow = { windowMs: 24 * hourMs, bucketMs: hourMs };

/** A send or save counted in one bucket: enough to give it back. */
export interface CounterEntry {
  readonly id: string;
  /** This entry's own token in the bucket's `claims` set (the attribute's published name). */
  readonly token: string;
}

/** The attribute holding the tokens of a bucket's entries (a string set). */
export const counterClaimsAttribute = 'claims';

export interface RollingCounter {
  /**
   * Counts one send (or save) for `subject` at `at`, or returns null when the window before `at` already
   * holds `limit` sends.
   */
  count(subject: string, at: Date, limit: number): Promise<CounterEntry | null>;
  /**
   * Seals and reads what counting each subject at `at` needs, for all of them in one read: the
   * client's and the network's counts that follow then write only (one BatchGetItem instead of two).
   */
  prepare(subjects: readonly string[], at: Date): Promise<void>;
  /** Gives a counted entry back (the e-mail was not sent, the request not saved). */
  release(entry: CounterEntry): Promise<void>;
}

function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** Bucket ids read like `client#<key>#2025-06-01T12:05:00.000Z`: the subject, then the bucket's start. */
export function counterItemId(subject: string, bucket: number, window: RollingWindow): string {
  return `${subject}#${new Date(bucket * window.bucketMs).toISOString()}`;
}

/** Epoch seconds after which no window counts `bucket` any more: its end plus the window. */
export function counterExpiry(bucket: number, window: RollingWindow): number {
  return Math.ceil(((bucket + 1) * window.bucketMs + window.windowMs) / 1000);
}

/** A bucket that turns out sealed moves the count on by one; more than twice would need a clock many minutes off. */
const maxBucketMoves = 2;
/** BatchGetItem may leave keys unprocessed under load: read those again, a few times. */
const maxBatchReads = 4;

/**
 * What this container read of a subject's earlier buckets, by the bucket it counted in: the sends
 * of the window before it, read once `bucket - 1` was sealed. Sealed buckets only change by
 * releases, which lower them, so a remembered total is never below the true one: a count that
 * uses it may refuse a send a release made room for (until the next bucket, at most 5 minutes for
 * the client limits, an hour for the budget), never let one more through. It saves the seal and
 * the read, two of a count's three calls, for every count after a container's first in a bucket:
 * the budget's, which every send shares, and a client's second send. docs/performance.md counts
 * a reader's calls with it.
 */
const earlierTotals = new Map<string, number>();
/** Buckets remembered at most (about 100 bytes each): a flood of clients starts the map again, it never grows past this. */
const maxEarlierTotals = 10_000;

export function rollingCounter(
  client: DynamoDBDocumentClient,
  tableName: string,
  window: RollingWindow,
): RollingCounter {
  if (window.windowMs % window.bucketMs !== 0) throw new Error('The window must be a whole number of buckets');
  const earlierBuckets = window.windowMs / window.bucketMs;
  const key = (id: string) => ({ [limitCountersPartitionKey]: id });

  async function storage<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new ProductError('storageUnavailable', `DynamoDB ${operation} (rolling counter) failed`, { cause: error });
    }
  }

  async function seal(subject: string, bucket: number): Promise<void> {
    await storage('UpdateItem', () =>
      client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key(counterItemId(subject, bucket, window)),
          UpdateExpression: 'SET #sealed = :sealed, #expiresAt = :expiresAt',
          ExpressionAttributeNames: { '#sealed': 'sealed', '#expiresAt': limitCountersExpiryAttribute },
          ExpressionAttributeValues: { ':sealed': true, ':expiresAt': counterExpiry(bucket, window) },
        }),
      ),
    );
  }

  /** Each subject's sends in the window's buckets before `bucket`, read consistently, in one BatchGetItem for all. */
  async function countSends(subjects: readonly string[], bucket: number): Promise<Map<string, number>> {
    const subjectOf = new Map<string, string>();
    for (const subject of subjects) {
      for (let earlier = bucket - earlierBuckets; earlier < bucket; earlier += 1) {
        subjectOf.set(counterItemId(subject, earlier, window), subject);
      }
    }
    const totals = new Map(subjects.map((subject) => [subject, 0]));
    let keys = [...subjectOf.keys()].map(key);
    for (let read = 1; keys.length > 0; read += 1) {
      if (read > maxBatchReads)
        throw new ProductError('storageUnavailable', 'DynamoDB BatchGetItem left keys unprocessed');
      const result = await storage('BatchGetItem', () =>
        client.send(
          new BatchGetCommand({
            RequestItems: {
              [tableName]: {
                Keys: keys,
                ConsistentRead: true,
                ProjectionExpression: '#id, #sends',
                ExpressionAttributeNames: { '#id': limitCountersPartitionKey, '#sends': 'sends' },
              },
            },
          }),
        ),
      );
      for (const item of (result.Responses?.[tableName] ?? []) as Array<Pick<RollingCounterItem, 'id' | 'sends'>>) {
        const subject = subjectOf.get(item.id)!;
        totals.set(subject, totals.get(subject)! + (item.sends ?? 0));
      }
      keys = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as typeof keys;
    }
    return totals;
  }

  /** Adds one send, with its token, to `bucket` if it holds fewer than `room` and is not sealed. */
  async function add(
    subject: string,
    bucket: number,
    room: number,
    token: string,
  ): Promise<'counted' | 'full' | 'sealed'> {
    const id = counterItemId(subject, bucket, window);
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key(id),
          UpdateExpression: 'ADD #sends :one, #claims :claim SET #expiresAt = :expiresAt',
          // Not sealed, not counted already, and the bucket new or under its room. Without parentheses
          // (DynamoDB takes AND before OR): the local twin's parser backtracks at each one (request-items.ts, anyOf).
          ConditionExpression:
            'attribute_not_exists(#sealed) AND NOT contains(#claims, :token) AND attribute_not_exists(#sends) OR attribute_not_exists(#sealed) AND NOT contains(#claims, :token) AND #sends < :room',
          ExpressionAttributeNames: {
            '#sends': 'sends',
            '#sealed': 'sealed',
            '#claims': counterClaimsAttribute,
            '#expiresAt': limitCountersExpiryAttribute,
          },
          ExpressionAttributeValues: {
            ':one': 1,
            ':claim': new Set([token]),
            ':token': token,
            ':room': room,
            ':expiresAt': counterExpiry(bucket, window),
          },
        }),
      );
      return 'counted';
    } catch (error) {
      if (!isConditionFailure(error)) {
        throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem (rolling counter) failed', { cause: error });
      }
    }
    // Consistent, on DynamoDB and dynalite alike: the same read tells a full bucket from a sealed
    // one and from this count's own earlier write.
    const { Item } = await storage('GetItem', () =>
      client.send(new GetCommand({ TableName: tableName, Key: key(id), ConsistentRead: true })),
    );
    const item = Item as (RollingCounterItem & { claims?: Set<string> }) | undefined;
    if (item?.claims?.has(token)) return 'counted';
    return item?.sealed ? 'sealed' : 'full';
  }

  /**
   * The sends of the window's buckets before `bucket`, for each subject, once `bucket - 1` is sealed:
   * sealed and read (all the subjects' buckets in one read) by the first count of this container in
   * `bucket`, remembered for the others (earlierTotals).
   */
  async function earlierSends(subjects: readonly string[], bucket: number): Promise<Map<string, number>> {
    const cacheId = (subject: string) => `${tableName}\n${counterItemId(subject, bucket, window)}`;
    const unknown = subjects.filter((subject) => !earlierTotals.has(cacheId(subject)));
    if (unknown.length > 0) {
      await Promise.all(unknown.map((subject) => seal(subject, bucket - 1)));
      const read = await countSends(unknown, bucket);
      if (earlierTotals.size + unknown.length > maxEarlierTotals) earlierTotals.clear();
      for (const [subject, total] of read) earlierTotals.set(cacheId(subject), total);
    }
    return new Map(subjects.map((subject) => [subject, earlierTotals.get(cacheId(subject))!]));
  }

  return {
    async prepare(subjects, at) {
      await earlierSends(subjects, Math.floor(at.getTime() / window.bucketMs));
    },

    async count(subject, at, limit) {
      let bucket = Math.floor(at.getTime() / window.bucketMs);
      const token = randomBytes(12).toString('base64url');
      for (let move = 0; move <= maxBucketMoves; move += 1) {
        const room = limit - (await earlierSends([subject], bucket)).get(subject)!;
        if (room <= 0) return null;
        const outcome = await add(subject, bucket, room, token);
        if (outcome === 'counted') return { id: counterItemId(subject, bucket, window), token };
        if (outcome === 'full') return null;
        bucket += 1; // a count in a later bucket already began: this send counts there
      }
      throw new ProductError('storageUnavailable', `Rolling counter buckets kept moving after ${maxBucketMoves} moves`);
    },

    async release({ id, token }) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key(id),
            UpdateExpression: 'ADD #sends :minusOne DELETE #claims :claim',
            ConditionExpression: '#sends > :zero AND contains(#claims, :token)',
            ExpressionAttributeNames: { '#sends': 'sends', '#claims': counterClaimsAttribute },
            ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0, ':claim': new Set([token]), ':token': token },
          }),
        );
      } catch (error) {
        // Nothing left to give back: the item expired, or this release's earlier attempt already did.
        if (isConditionFailure(error)) return;
        throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem (rolling counter) failed', { cause: error });
      }
    },
  };
}
