/**
 * `npm run leads -- stuck list` and `stuck clear`: the requests left `sending` (a send that
 * claimed them and never recorded what SES said: its function timed out or crashed around the call,
 * or its record could not be written), and the operator's decision on each, since `resend` never
 * takes a `sending` request (its e-mail may have gone out).
 *
 * A request counts as stuck once it has been `sending` for a day (`stuckAfterMs`), and only then may
 * it be cleared. Why a day is safe:
 * - every attempt the send path makes is over by then: the send route and the queued sender stop
 *   within their Lambda timeouts (under a minute), and the send queue's backlog ticket opens after
 *   15 minutes;
 * - the submission's `Idempotency-Key` lives a day (lambdas/requests/idempotency.ts): no retry of the
 *   reader's own send can still replay or run under it;
 * - a message for it still on the send queue (kept 14 days) can no longer send: the clear moves the
 *   item off `sending`, and the queued sender begins an attempt only while the item is `sending`
 *   under the message's token (lambdas/requests/queued-attempts.ts), so the queue's retention need
 *   not be waited out;
 * - SES's events reach the record within minutes of a delivery: one a day late is unlikely, and
 *   moves an `unknown` request on to `delivered` all the same (lambdas/ses-events).
 *
 * Each clear is one conditional UpdateItem: only while the item is still `sending` under the token
 * and since the time as read, so a send that took it meanwhile is left alone, and a second clear
 * does nothing. What the operator chooses:
 * - `--as unknown`: the outcome is not known; it is never resent (as a send that got no answer);
 * - `--as failed`: nothing went out (the SES events and the send's log show no message for it):
 *   `resend` may then take it, through the usual claim, so one e-mail at most.
 */

import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { failureKinds } from '../../core/api/catalogue/failures';
import { deliveryStatusOf, statusTimeAttributes } from '../../core/data/delivery-status';
import { unsentIndex, type CheatSheetRequestItem } from '../../core/data/tables';

/** How long a request must have been `sending` before it counts as stuck and may be cleared (see above). */
export const stuckAfterMs = 24 * 60 * 60_000;

/** What a stuck request may become: never resent, or resendable. */
export const clearedStatuses = ['unknown', 'failed'] as const;
export type ClearedStatus = (typeof clearedStatuses)[number];

/** The failure code a request cleared as `failed` carries: a fault of ours, not a refusal. */
export const clearedFailureCode = failureKinds.unexpected.code;

/** `36h`, `2d`: a duration in whole hours or days, in milliseconds; undefined when it is neither. */
export function parseAge(text: string): number | undefined {
  const match = /^(\d+)([hd])$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * (match[2] === 'd' ? 24 : 1) * 60 * 60_000;
}

/** When it went `sending`: its `sending_at`, or the latest change for an item without it. */
function sendingSince(item: CheatSheetRequestItem): string {
  return item.sending_at ?? item.status_at ?? item.requested_at;
}

/** The requests `sending` for at least `olderThanMs` (never less than a day) at `now`, oldest first. */
export function stuckOf(
  items: readonly CheatSheetRequestItem[],
  now: Date,
  olderThanMs = stuckAfterMs,
): CheatSheetRequestItem[] {
  const age = Math.max(olderThanMs, stuckAfterMs);
  return items
    .filter((item) => deliveryStatusOf(item) === 'sending')
    .filter((item) => now.getTime() - Date.parse(sendingSince(item)) >= age)
    .sort((a, b) => sendingSince(a).localeCompare(sendingSince(b)) || a.id.localeCompare(b.id));
}

/** One line per request: since when, whether the queued sender's attempt began, the address and the id. */
export function describeStuck(item: CheatSheetRequestItem): string {
  const attempt = (item as { send_attempt_at?: string }).send_attempt_at;
  const began = attempt ? `  [the queued sender's attempt began ${attempt}]` : '';
  return `  sending since ${sendingSince(item)}  saved ${item.requested_at}  ${item.email}  (id ${item.id})${began}`;
}

/**
 * Moves each request from `sending` to `as`, only while it is still the one read (same token, same
 * `sending_at`). Returns the ids cleared; one a send took meanwhile is left out.
 */
export async function clearStuckRequests(
  client: DynamoDBDocumentClient,
  tableName: string,
  stuck: readonly CheatSheetRequestItem[],
  as: ClearedStatus,
  at: Date,
): Promise<string[]> {
  const cleared: string[] = [];
  for (const item of stuck) {
    const token = (item as { send_token?: string }).send_token;
    const time = at.toISOString();
    const names: Record<string, string> = { '#status': 'delivery_status', '#statusTime': statusTimeAttributes[as] };
    if (as === 'unknown') names['#queue'] = unsentIndex.partitionKey;
    const values: Record<string, unknown> = { ':as': as, ':at': time, ':sending': 'sending' };
    const condition = ['#status = :sending'];
    if (token === undefined) condition.push('attribute_not_exists(send_token)');
    else {
      condition.push('send_token = :token');
      values[':token'] = token;
    }
    if (item.sending_at === undefined) condition.push('attribute_not_exists(sending_at)');
    else {
      condition.push('sending_at = :sendingAt');
      values[':sendingAt'] = item.sending_at;
    }
    // failed stays in the unsent index (unsent lists it, resend may take it); unknown leaves it, as a send's own.
    const update =
      as === 'failed'
        ? 'SET #status = :as, status_at = :at, #statusTime = :at, failure_code = :code, stuck_cleared_at = :at REMOVE send_attempt_at'
        : 'SET #status = :as, status_at = :at, #statusTime = :at, stuck_cleared_at = :at REMOVE send_attempt_at, #queue';
    if (as === 'failed') values[':code'] = clearedFailureCode;
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id: item.id },
          UpdateExpression: update,
          ConditionExpression: condition.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      cleared.push(item.id);
    } catch (error) {
      if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
    }
  }
  return cleared;
}
