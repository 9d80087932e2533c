/**
 * The four tables, described once: the three kept ones, `cheat_sheet_requests`,
 * `cheat_sheet_send_quotas` and `cheat_sheet_idempotency`, and the funnel's day-long
 * `cheat_sheet_funnel_visitors`. The CDK data construct, the local twin and the tests all build
 * their tables from these definitions, so they agree by construction.
 */

import type { DeliveryStatus } from './delivery-status';

/** A key attribute; every key of this product is a string. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: 'string';
}

export interface GlobalIndexDefinition {
  readonly name: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** Which attributes the index copies: all of them, the keys only, or the keys and those named. */
  readonly projection: 'all' | 'keys-only' | { readonly include: readonly string[] };
}

export interface TableDefinition {
  readonly name: string;
  readonly partitionKey: KeyAttribute;
  readonly globalIndexes: readonly GlobalIndexDefinition[];
  /** The attribute DynamoDB's TTL reads (epoch seconds); none when items are kept. */
  readonly timeToLiveAttribute?: string;
}

const text = (name: string): KeyAttribute => ({ name, type: 'string' });

export const tableName = 'cheat_sheet_requests';

/** Partition key: one item per request. */
export const partitionKey = 'id';

/** Finds an address's requests, newest first, for the send flag. */
export const emailIndex = {
  name: 'email-requested_at-index',
  partitionKey: 'email',
  sortKey: 'requested_at',
} as const;

export { unsentIndex } from './unsent-index';
import { unsentIndex } from './unsent-index';

/**
 * The requests' TTL attribute (epoch seconds), written only when the deployment sets a retention
 * (`requestRetentionDays`); by default requests are kept, and the table has no TTL.
 */
export const requestExpiryAttribute = 'expires_at';

/** Every request, one item each. The send function reads `cheat_sheet_sent` and `sent_at` from the index. */
export const requestsTable: TableDefinition = {
  name: tableName,
  partitionKey: text(partitionKey),
  globalIndexes: [
    {
      name: emailIndex.name,
      partitionKey: text(emailIndex.partitionKey),
      sortKey: text(emailIndex.sortKey),
      projection: 'all',
    },
    {
      name: unsentIndex.name,
      partitionKey: text(unsentIndex.partitionKey),
      sortKey: text(unsentIndex.sortKey),
      projection: { include: unsentIndex.attributes },
    },
  ],
};

/** One request as stored. */
export interface CheatSheetRequestItem {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly cheat_sheet_sent: boolean;
  /** ISO 8601. */
  readonly requested_at: string;
  /** ISO 8601; set once SES accepted the e-mail. */
  readonly sent_at?: string;
  /** `unsent` while the request awaits its e-mail: its place in the unsent index (unsentIndex). */
  readonly unsent_queue?: typeof unsentIndex.value;
  /** Epoch seconds after which DynamoDB's TTL may delete it; only with a retention, or a day on the canary's. */
  readonly expires_at?: number;
  /** `true` on the canary's request only (core/data/canary-mark.ts): never a lead. */
  readonly canary?: true;
  /**
   * Where its delivery stands (core/data/delivery-status.ts); absent on items written before it
   * existed, which read as `sent` or `requested` from `cheat_sheet_sent`.
   */
  readonly delivery_status?: DeliveryStatus;
  /** ISO 8601: the latest change of `delivery_status`; each state also stamps its own time (`sending_at`…). */
  readonly status_at?: string;
  readonly sending_at?: string;
  readonly delivered_at?: string;
  readonly bounced_at?: string;
  readonly complained_at?: string;
  readonly failed_at?: string;
  readonly unknown_at?: string;
  /** The id SES gave the e-mail: the SES events carry it. */
  readonly ses_message_id?: string;
  /** The claim of the send that holds or held it: its own writes are conditional on it. */
  readonly send_token?: string;
  /**
   * ISO 8601: a queued send (lambdas/requests/queued-send.ts) began its attempt at SES; set before
   * the call, so a redelivered message of the same request never calls SES again.
   */
  readonly send_attempt_at?: string;
  /** On `failed`: the failure catalogue's `code`. */
  readonly failure_code?: string;
  /**
   * The `Idempotency-Key` of the submission that wrote it (the page's, or the form's derived one):
   * the item's id is derived from it, so the submission's send finds it by key, and `erase` finds
   * the key's idempotency records. Absent on requests made without a key.
   */
  readonly submission_key?: string;
  /**
   * The id of a later request of the same mailbox whose e-mail went out while this one was still
   * `requested` or `failed`: the reader has the sheet, so no send or resend claims this one. A
   * field, not a state: `delivery_status` keeps what happened to this request itself.
   */
  readonly superseded_by?: string;
  /** ISO 8601: when it was superseded. */
  readonly superseded_at?: string;
  /** What the reader agreed to, and when: requests made through the page or the form. */
  readonly consent?: {
    readonly at?: string;
    readonly statement?: string;
    readonly privacy_version?: string;
    readonly form_version?: string;
    readonly mail_provider?: string;
    readonly notice?: string;
    /** With a mail provider: whether the reader ticked "join the author's mailing list", and its words. */
    readonly mailing_list?: { readonly joined?: boolean; readonly statement?: string };
  };
}

/**
 * The daily cap's bookkeeping: a table of its own, so the requests table holds request items
 * only. One item per address that was sent the cheat sheet, keyed by the HMAC-SHA-256 of the
 * normalized address under the deployment's secret (core/data/address-hash.ts): no address, no
 * name, and no hash anyone holding the address could recompute. DynamoDB's TTL deletes an item once its newest send
 * no longer counts (`expires_at`); dynalite ignores TTL, and nothing depends on the deletion.
 */
export const limitCountersTableName = 'cheat_sheet_send_quotas';

/** Partition key: the daily cap's, the hex HMAC-SHA-256 of the normalized address; the other items' ids carry a `#`. */
export const limitCountersPartitionKey = 'id';

/** The TTL attribute: epoch seconds, the newest counted send plus the 24-hour window. */
export const limitCountersExpiryAttribute = 'expires_at';

/** One address's per-address cap item as stored. */
export interface AddressDailyCapItem {
  readonly id: string;
  /** ISO 8601 times of the sends that count towards the cap (older ones are dropped on write). */
  readonly recent_sends: string[];
  /**
   * Each counted send's claim token → its time (`recent_sends` holds the same times): how a claim
   * retried by the SDK recognizes its own earlier write. Absent on items written before it.
   */
  readonly claims?: Record<string, string>;
  /** Bumped by every write; each write is conditional on the version it read. */
  readonly version: number;
  /** Epoch seconds after which the item counts nothing and DynamoDB's TTL may delete it. */
  readonly expires_at: number;
}

/**
 * The same table holds the two rolling counters of `lambdas/limits/rolling-counter.ts`,
 * under ids no address hash can take (a hex HMAC-SHA-256 has no `#`):
 *
 * - the per-client limit, `client#<key>#<bucket start>`: `<key>` is the HMAC-SHA-256 of the
 *   client's network (its IPv4 address, or its IPv6 /64) under a key generated per deployment,
 *   so neither the address nor a hash anyone could recompute by trying every IPv4 address is
 *   stored; one item per client per 5-minute bucket;
 * - the product's daily send budget, `budget#<bucket start>`: one item per hour.
 *
 * Each item counts the sends claimed in its bucket and expires (TTL) once no window reaches it.
 */
export function clientHourlySendCapSubject(clientKey: string): string {
  return `client#${clientKey}`;
}
export const dailySendBudgetSubject = 'budget';

/**
 * The per-network send limit, `network#<key>#<bucket start>`, and the save route's two,
 * `save-client#…` and `save-network#…`: `<key>` is the HMAC-SHA-256 (same per-deployment key) of
 * the client's network or of its wider network (an IPv4 /24, an IPv6 /48).
 */
export function networkHourlySendCapSubject(networkKey: string): string {
  return `network#${networkKey}`;
}
export function clientHourlySaveCapSubject(clientKey: string): string {
  return `save-client#${clientKey}`;
}
export function networkHourlySaveCapSubject(networkKey: string): string {
  return `save-network#${networkKey}`;
}

/**
 * A mailbox that bounced for good or complained, `suppressed#<hash>`: `<hash>` is the HMAC-SHA-256
 * of the normalized address under the deployment's secret (address-hash.ts,
 * address-normalization.ts), so every `+tag` and Gmail-dot spelling of it is one item, no address
 * is stored, and no one without the secret can match an address to it. No TTL: a mailbox that does
 * not exist, or whose owner called the e-mail spam, is not mailed again until its owner asks for
 * erasure: `npm run leads -- erase` removes it (under its keyed id and its legacy SHA-256 one,
 * with the SES account's own list entry), as the privacy page says, so an erased address may ask
 * again and be mailed.
 */
export function suppressionId(addressHash: string): string {
  return `suppressed#${addressHash}`;
}

/**
 * SES's send pace (lambdas/mail/send-pace.ts): one item, `next_at` the epoch ms at which the next
 * send is due. Every sender shares it, so together they never call SES faster than its rate.
 */
export const sendPaceItemId = 'ses-send-pace';

/** What a keyed entry's `keying` says: its id is the HMAC (a legacy entry, plain SHA-256, has none). */
export const suppressionKeying = 'hmac-sha256';

/** One suppressed mailbox as stored. */
export interface SuppressionItem {
  readonly id: string;
  /**
   * `hmac-sha256` on every entry written since the ids were keyed; absent on a legacy entry
   * (`suppressed#<SHA-256>`), which `npm run leads -- rekey` finds by it.
   */
  readonly keying?: typeof suppressionKeying;
  /** Why: the SES event that suppressed it. */
  readonly reason: 'bounce' | 'complaint';
  /** ISO 8601. */
  readonly suppressed_at: string;
}

/** One bucket of a rolling counter as stored. */
export interface RollingCounterItem {
  readonly id: string;
  /** Sends claimed in this bucket (absent until the first). */
  readonly sends?: number;
  /** Set once a claim of the next bucket began: no claim may land here any more. */
  readonly sealed?: boolean;
  /** Epoch seconds: the end of the last window that counts this bucket. */
  readonly expires_at: number;
}

/**
 * The daily cap's counters (DynamoDB deletes each one a day after its newest send), and the
 * per-client and daily-budget counters (deleted once their window has passed).
 */
export const limitCountersTable: TableDefinition = {
  name: limitCountersTableName,
  partitionKey: text(limitCountersPartitionKey),
  globalIndexes: [],
  timeToLiveAttribute: limitCountersExpiryAttribute,
};

/**
 * The idempotency records of both JSON routes (Powertools for AWS Lambda's Idempotency utility,
 * `lambdas/requests/idempotency.ts`): one item per `Idempotency-Key` and route, holding the hash
 * of the request body and, once done, the first reply. No name and no address: the key is the
 * route's name and a SHA-256 of the client's key (the form route's key is itself keyed:
 * lambdas/submit-form/form-key.ts), the body only as a SHA-256 of its HMAC under the deployment's
 * secret (lambdas/requests/keyed-step.ts). DynamoDB's TTL
 * deletes each item a day after it was written (`expiration`, Powertools' attribute).
 */
export const idempotencyTableName = 'cheat_sheet_idempotency';

/** Partition key: `<route>#<SHA-256 of the key>` (Powertools' default key attribute). */
export const idempotencyPartitionKey = 'id';

/** The TTL attribute Powertools writes: epoch seconds, the key's expiry. */
export const idempotencyExpiryAttribute = 'expiration';

/** One key's record, deleted by TTL a day after it was written. */
export const idempotencyTable: TableDefinition = {
  name: idempotencyTableName,
  partitionKey: text(idempotencyPartitionKey),
  globalIndexes: [],
  timeToLiveAttribute: idempotencyExpiryAttribute,
};

/**
 * The funnel's unique visitors of the day (lambdas/funnel/visitor-count.ts): the day's random salt,
 * `funnel-salt#<day>`, and one mark per visitor, `funnel-visitor#<day>#<hash>`, the HMAC of the day,
 * the client's network and its user agent under that salt. A table of its own because nothing of
 * it may outlive the day: with the salt and a suspected visitor's network and user agent, anyone
 * holding a copy could test whether that visitor came. So no backup keeps it (no point-in-time
 * recovery, which would keep every deleted salt 35 days), DynamoDB's TTL deletes each item at the
 * day's end, the next day's first visit deletes the salt at once, and the stack's deletion removes
 * the table: it holds nothing worth keeping. The day's counts stay in the limit counters' table.
 */
export const funnelVisitorsTableName = 'cheat_sheet_funnel_visitors';

/** Partition key: the salt's or the mark's id (core/data/funnel.ts). */
export const funnelVisitorsPartitionKey = 'id';

/** The TTL attribute: epoch seconds, the end of the item's day. */
export const funnelVisitorsExpiryAttribute = 'expires_at';

/** The day's salt and visitor marks, each deleted by TTL at the day's end. */
export const funnelVisitorsTable: TableDefinition = {
  name: funnelVisitorsTableName,
  partitionKey: text(funnelVisitorsPartitionKey),
  globalIndexes: [],
  timeToLiveAttribute: funnelVisitorsExpiryAttribute,
};

/** The tables that outlive the stack (retained, deletion protection, point-in-time recovery): they hold the leads. */
export const keptTables: readonly TableDefinition[] = [requestsTable, limitCountersTable, idempotencyTable];

/** Every table, in the order they are created. */
export const tables: readonly TableDefinition[] = [...keptTables, funnelVisitorsTable];
