/**
 * The daily cap, enforced atomically: before an e-mail goes out, the send takes one of the
 * address's slots (`takeSlot`) in its item of the quota table (`core/data/tables.ts`, `cheat_sheet_send_quotas`),
 * whose id is the address's HMAC under the deployment's secret (`core/data/address-hash.ts`). Items
 * written before the ids were keyed (plain SHA-256) are not read: they expire within a day of their
 * last send, so for that day an address may get up to twice its cap once.
 * Taking a slot is a conditional write on the version it read (an address without an item is
 * written at once, on the condition that there still is none), so of any number of parallel sends
 * exactly as many as the cap allows get a slot; the others re-read, retry, and find the cap
 * reached.
 *
 * Only GetItem (strongly consistent) and UpdateItem with a condition: operations dynalite has,
 * and the only two the send role may call on the limit counters table. Every write also sets the TTL
 * attribute to the newest counted send plus the window, so an idle item is deleted by DynamoDB
 * (no TTL API is called; dynalite ignores it). Every SDK failure becomes a `storageUnavailable` ProductError.
 *
 * Each slot taken also writes a token of its own into the item's `claims` map (token → send time), in
 * the same write. When the SDK retried a write whose reply was lost (a timeout after DynamoDB
 * wrote it), the retry fails its version condition; the next round's consistent read finds the
 * token, and the slot is taken: one send, counted once. A release removes its token with its
 * send, so a release repeated the same way gives back nothing more.
 */

import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ProductError } from '../runtime/errors';
import { addressDailyCapItemId } from '../../core/data/address-hash';
import type { AddressKeySource } from './address-key';
import {
  limitCountersExpiryAttribute,
  limitCountersPartitionKey,
  type AddressDailyCapItem,
} from '../../core/data/tables';

/** A slot taken by one send: enough to give it back if the e-mail could not be sent. */
export interface AddressDailyCapSlot {
  readonly id: string;
  readonly sentAt: string;
  /** This slot's key in the item's `claims` map (the attribute's published name). */
  readonly token: string;
}

export interface AddressDailyCapCounter {
  /**
   * Takes one slot of the address's cap at `at`, or returns null when the sends of the 24 hours
   * before `at` already reach `limit`.
   */
  takeSlot(email: string, at: Date, limit: number): Promise<AddressDailyCapSlot | null>;
  /** Gives a taken slot back, so a send that failed does not count. */
  release(slot: AddressDailyCapSlot): Promise<void>;
}

export interface AddressDailyCapCounterOptions {
  /** @default 24 hours */
  readonly windowMs?: number;
  /**
   * How many read-and-write rounds taking a slot may need before giving up. Every round some
   * contender's write succeeds, so taking a slot needs at most cap + 1 rounds while the cap is being
   * contended; 10 is ample for the stage's burst of 20 requests.
   *
   * @default 10
   */
  readonly maxAttempts?: number;
  /** Waits between rounds; jittered so contenders do not collide again in lockstep. */
  readonly pause?: (attempt: number) => Promise<void>;
}

const dayMs = 24 * 60 * 60 * 1000;

/** When an item holding `sends` (one at least) counts nothing any more: newest + window, epoch seconds. */
export function addressDailyCapExpiry(sends: readonly string[], windowMs: number): number {
  const newest = Math.max(...sends.map((sent) => Date.parse(sent)));
  return Math.ceil((newest + windowMs) / 1000);
}

function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

const jitteredPause = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));

export function addressDailyCapCounter(
  client: DynamoDBDocumentClient,
  tableName: string,
  addressKey: AddressKeySource,
  { windowMs = dayMs, maxAttempts = 10, pause = jitteredPause }: AddressDailyCapCounterOptions = {},
): AddressDailyCapCounter {
  async function read(id: string): Promise<AddressDailyCapItem | undefined> {
    try {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: { [limitCountersPartitionKey]: id }, ConsistentRead: true }),
      );
      return Item as AddressDailyCapItem | undefined;
    } catch (error) {
      throw new ProductError('storageUnavailable', 'DynamoDB GetItem (address daily cap) failed', { cause: error });
    }
  }

  /**
   * Writes the new list, and its expiry, if the item is still at `version` (absent when
   * undefined); false if not.
   */
  async function write(
    id: string,
    recentSends: string[],
    claims: Record<string, string>,
    expiresAt: number,
    version: number | undefined,
  ): Promise<boolean> {
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { [limitCountersPartitionKey]: id },
          UpdateExpression: 'SET #sends = :sends, #claims = :claims, #version = :next, #expiresAt = :expiresAt',
          ConditionExpression: version === undefined ? 'attribute_not_exists(#id)' : '#version = :current',
          ExpressionAttributeNames: {
            '#sends': 'recent_sends',
            '#claims': 'claims',
            '#version': 'version',
            '#expiresAt': limitCountersExpiryAttribute,
            ...(version === undefined ? { '#id': limitCountersPartitionKey } : {}),
          },
          ExpressionAttributeValues: {
            ':sends': recentSends,
            ':claims': claims,
            ':next': (version ?? 0) + 1,
            ':expiresAt': expiresAt,
            ...(version === undefined ? {} : { ':current': version }),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem (address daily cap) failed', { cause: error });
    }
  }

  return {
    async takeSlot(email, at, limit) {
      const id = addressDailyCapItemId(email, await addressKey());
      const sentAt = at.toISOString();
      const token = randomBytes(12).toString('base64url');
      const windowStart = at.getTime() - windowMs;
      const inWindow = (sent: string) => Date.parse(sent) >= windowStart;
      // Most addresses have no item (no send in the last day): the first write assumes none, and
      // saves the read. An item there fails its condition, and the rounds below read it.
      if (
        limit >= 1 &&
        (await write(id, [sentAt], { [token]: sentAt }, addressDailyCapExpiry([sentAt], windowMs), undefined))
      ) {
        return { id, sentAt, token };
      }
      for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
        const current = await read(id);
        // This slot's own write landed, though its reply was lost: it is counted already.
        if (current?.claims?.[token] !== undefined) return { id, sentAt, token };
        // Sends more than 24 hours old no longer count, and are dropped with this write.
        const recent = (current?.recent_sends ?? []).filter(inWindow);
        if (recent.length >= limit) return null;
        const sends = [...recent, sentAt];
        const claims = {
          ...Object.fromEntries(Object.entries(current?.claims ?? {}).filter(([, sent]) => inWindow(sent))),
          [token]: sentAt,
        };
        if (await write(id, sends, claims, addressDailyCapExpiry(sends, windowMs), current?.version)) {
          return { id, sentAt, token };
        }
        if (attempt < maxAttempts) await pause(attempt);
      }
      throw new ProductError('storageUnavailable', `Address daily cap still contended after ${maxAttempts} attempts`);
    },

    async release({ id, sentAt, token }) {
      for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
        const current = await read(id);
        const index = current?.recent_sends.indexOf(sentAt) ?? -1;
        if (!current || index === -1) return; // already gone: expired, or never written
        // Already given back by this release's own earlier write (an item older than the tokens has none).
        if (current.claims !== undefined && current.claims[token] === undefined) return;
        const remaining = current.recent_sends.filter((_, position) => position !== index);
        const claims = Object.fromEntries(Object.entries(current.claims ?? {}).filter(([claim]) => claim !== token));
        // With no send left, the item expires a window after the released one, as it would have.
        const expiresAt = addressDailyCapExpiry(remaining.length > 0 ? remaining : [sentAt], windowMs);
        if (await write(id, remaining, claims, expiresAt, current.version)) return;
        if (attempt < maxAttempts) await pause(attempt);
      }
      throw new ProductError('storageUnavailable', `Address daily cap still contended after ${maxAttempts} attempts`);
    },
  };
}
