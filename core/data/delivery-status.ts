/**
 * A request's delivery, as its item records it: the states, what time each one stamps, which
 * states a send may claim, and which items count as "unsent". Plain data and pure functions, read
 * by the functions that move a request (save, send, the SES events, the unsent check) and by the
 * leads tool.
 *
 *   requested ─▶ sending ─▶ sent ─▶ delivered ─▶ complained
 *        ▲          │  │      └───▶ bounced / complained
 *        └─ failed ◀┘  └─▶ unknown ─▶ (an SES event: delivered / bounced / complained)
 *
 * Who moves it: the save function writes `requested`; the send function (or `npm run leads --
 * resend`) claims `requested` or `failed` to `sending` with a token, then writes `sent` (SES
 * accepted), `failed` (SES provably took nothing) or `unknown` (the call left and no answer came);
 * the SES events function writes `delivered`, `bounced` (permanent bounces) and `complained`.
 * Each writer moves a request only from the state it expects: the send's own writes from
 * `sending` (with its token), so a late `sent` never overwrites an SES verdict that came first.
 *
 * Superseded is a field, not a state (`superseded_by`, core/data/tables.ts): a `requested` or
 * `failed` request whose reader was mailed through a later request of the same mailbox keeps its
 * own state, and is no longer claimable, unsent or resent. The states above stay the list the
 * export, the digest and the contract name.
 */

import { failureKindList } from '../api/catalogue/failures';

export const deliveryStatuses = [
  'requested',
  'sending',
  'sent',
  'delivered',
  'bounced',
  'complained',
  'failed',
  'unknown',
] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/**
 * The SES message tag that carries the request's id: SES copies a message's tags into each of its
 * events, so the events function updates the record by its key. Cheaper than a global index on
 * the message id, which would copy every item's writes (a second write unit each) and need a
 * Query before each update.
 */
export const requestIdMessageTag = 'request_id';

/** The attribute each state stamps with its time (ISO 8601), besides `status_at` (the latest change). */
export const statusTimeAttributes: Readonly<Record<DeliveryStatus, string>> = {
  requested: 'requested_at',
  sending: 'sending_at',
  sent: 'sent_at',
  delivered: 'delivered_at',
  bounced: 'bounced_at',
  complained: 'complained_at',
  failed: 'failed_at',
  unknown: 'unknown_at',
};

/**
 * The states a send may claim: never `sending` (another send holds it), never `unknown` (SES may
 * have accepted it: sending again could mail the reader twice), never any state after `sent`.
 */
export const claimableStatuses: readonly DeliveryStatus[] = ['requested', 'failed'];

/** How long after it was saved a request may still be on its way: the page sends within seconds. */
export const unsentAfterMs = 15 * 60_000;

/** The fields the delivery functions read; items written before `delivery_status` existed lack it. */
export interface DeliveryFields {
  readonly cheat_sheet_sent?: boolean;
  readonly requested_at?: string;
  readonly delivery_status?: string;
  /** On `failed`: the failure catalogue's `code` (core/api/catalogue/failures.ts). */
  readonly failure_code?: string;
  /** A later request of the same mailbox that reached the reader: this one needs no send. */
  readonly superseded_by?: string;
}

/** The states after SES accepted a send: the reader was mailed. */
export const mailedStatuses: readonly DeliveryStatus[] = ['sent', 'delivered', 'bounced', 'complained'];

/** An item's state; an item from before the field existed reads as `sent` or `requested`. */
export function deliveryStatusOf(item: DeliveryFields): DeliveryStatus {
  const status = item.delivery_status as DeliveryStatus | undefined;
  if (status !== undefined && deliveryStatuses.includes(status)) return status;
  return item.cheat_sheet_sent === true ? 'sent' : 'requested';
}

/** Still not sent: requested, being sent (or stuck there), or failed. */
export function isUnsentStatus(status: DeliveryStatus): boolean {
  return status === 'requested' || status === 'sending' || status === 'failed';
}

/** Saved more than 15 minutes before `now` and still not sent: what `npm run leads -- unsent` lists. */
export function isUnsent(item: DeliveryFields, now: Date): boolean {
  if (item.superseded_by !== undefined) return false;
  if (!isUnsentStatus(deliveryStatusOf(item))) return false;
  const requestedAt = Date.parse(item.requested_at ?? '');
  return Number.isFinite(requestedAt) && now.getTime() - requestedAt >= unsentAfterMs;
}

/** The failure codes that are a refusal on purpose (a limit, the pause, a made-up domain): not a fault of ours. */
const refusalCodes: ReadonlySet<string> = new Set(
  failureKindList
    .filter((kind) => kind.status < 500 || (kind.metric !== null && 'refusal' in kind.metric))
    .map((kind) => kind.code),
);

/**
 * Unsent for a reason nobody was told of: what the unsent alarm counts. A request refused on
 * purpose (its cap, the budget, the pause, an undeliverable domain) is listed by `unsent` but
 * pages nobody: the refusal is the product working, and its own metric graphs it.
 */
export function isUnsentUnnoticed(item: DeliveryFields, now: Date): boolean {
  if (!isUnsent(item, now)) return false;
  return deliveryStatusOf(item) !== 'failed' || !refusalCodes.has(item.failure_code ?? '');
}
