/**
 * The request items' parts both writers share (cheat-sheet-requests.ts): a new item's attributes,
 * its id from a submission's key, its expiry, what a send may claim, and how an SDK failure is
 * told from a condition that did not hold.
 */

import { createHash, randomUUID } from 'node:crypto';
import { cleanStoredName } from '../../core/documents/greeting-name';
import { claimableStatuses, type DeliveryStatus } from '../../core/data/delivery-status';
import { requestExpiryAttribute, unsentIndex, type CheatSheetRequestItem } from '../../core/data/tables';
import { ProductError } from '../runtime/errors';
import { canaryItemAttribute, canaryRetentionDays } from '../../core/data/canary-mark';

/**
 * Whether a failed `attribute_not_exists(id)` on a new item's fresh random id is this call's own
 * earlier attempt, which the SDK retried after its reply was lost (a timeout after DynamoDB wrote
 * it): the id is the claim token, so no other writer can have used it. DynamoDB returns the item
 * (`ReturnValuesOnConditionCheckFailure`), which must then be the one this call wrote; dynalite
 * returns none, and the fresh id alone is the proof.
 */
export function isOwnEarlierPut(error: unknown, item: CheatSheetRequestItem): boolean {
  if (!(error instanceof Error) || error.name !== 'ConditionalCheckFailedException') return false;
  const old = (error as { Item?: Record<string, { S?: string }> }).Item;
  return old === undefined || old.requested_at?.S === item.requested_at;
}

/**
 * The id of the request a submission's key names: a UUID (version 8, RFC 9562) made of the key's
 * SHA-256, so the save and the send of one submission address the same item, and two keys never do.
 */
export function submissionItemId(submissionKey: string): string {
  const hex = createHash('sha256').update(`cheat-sheet submission\n${submissionKey}`, 'utf8').digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

export async function storage<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new ProductError('storageUnavailable', `DynamoDB ${operation} failed`, { cause: error });
  }
}

/**
 * What a send may claim, as alternatives any one of which suffices: `requested` or `failed`, or an
 * item written before `delivery_status` existed that was never sent (core/data/delivery-status.ts);
 * never one superseded. Each implies the item exists.
 */
const claimableTerms = [
  'attribute_not_exists(superseded_by) AND #status IN (:requested, :failed)',
  'attribute_not_exists(superseded_by) AND attribute_not_exists(#status) AND #sent = :unsent',
];

/**
 * `terms` joined by OR, each ANDed with `also`: written without parentheses, since DynamoDB takes
 * AND before OR ("Precedence in conditions",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html).
 * The same condition with nested parentheses cost the local twin's DynamoDB (dynalite, whose parser
 * backtracks at each parenthesis) 25 to 50 ms of CPU to parse, a third of a reader's (docs/performance.md).
 */
export function anyOf(terms: readonly string[], also?: string): string {
  return terms.map((term) => (also === undefined ? term : `${also} AND ${term}`)).join(' OR ');
}

/** What a send may claim, as a condition or a filter. */
export const claimableCondition = anyOf(claimableTerms);

/** Claimable, or held already by `:token` (the claim's own retried write); with `email`, only that address's. */
export function claimCondition(email?: string): string {
  return anyOf([...claimableTerms, 'send_token = :token'], email === undefined ? undefined : 'email = :email');
}
export const claimableNames = { '#status': 'delivery_status', '#sent': 'cheat_sheet_sent' };

/** The SES events' verdicts: a `sent` written after one of them would undo it. */
export const sesVerdicts: readonly DeliveryStatus[] = ['delivered', 'bounced', 'complained'];
export const claimableValues = {
  ':requested': claimableStatuses[0],
  ':failed': claimableStatuses[1],
  ':unsent': false,
};

/** How many of the address's requests, newest first, one index page reads. */
export const unsentSearchPageSize = 25;
/** Pages read before giving up: an address with 100 newer sent requests has no unsent one worth claiming. */
export const unsentSearchMaxPages = 4;

const daySeconds = 24 * 60 * 60;

/** The TTL value: epoch seconds, `days` after `from`. */
export function expiryAfter(from: Date, days: number): number {
  return Math.ceil(from.getTime() / 1000) + days * daySeconds;
}

/**
 * A new request item: its id (the submission key's, or a fresh UUID), the name as typed without
 * control and format characters (greeting-name.ts), unsent, in the unsent index, and its expiry;
 * `status` and what goes with it are the writer's.
 */
export function newRequestItem(
  { name, email }: { readonly name: string; readonly email: string },
  at: Date,
  status: DeliveryStatus,
  submissionKey: string | undefined,
  expiry: Partial<Record<typeof requestExpiryAttribute, number>>,
): CheatSheetRequestItem {
  const time = at.toISOString();
  return {
    id: submissionKey === undefined ? randomUUID() : submissionItemId(submissionKey),
    ...(submissionKey !== undefined && { submission_key: submissionKey }),
    name: cleanStoredName(name),
    email,
    cheat_sheet_sent: false,
    requested_at: time,
    delivery_status: status,
    status_at: time,
    unsent_queue: unsentIndex.value,
    ...expiry,
  };
}

/**
 * The canary's item: marked, out of the unsent index (its runs that save without sending are no
 * reader waiting), and deleted by TTL a day after it was saved, whatever the stage's retention.
 */
export function canaryItem(item: CheatSheetRequestItem, requestedAt: Date): CheatSheetRequestItem {
  const { unsent_queue: _unsent, ...rest } = item;
  return {
    ...rest,
    [canaryItemAttribute]: true,
    [requestExpiryAttribute]: expiryAfter(requestedAt, canaryRetentionDays),
  };
}
