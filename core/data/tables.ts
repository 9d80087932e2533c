/**
 * The shape of the two tables, `cheat_sheet_requests` and `cheat_sheet_send_quotas`, shared by
 * the functions, the local emulator set-up and the CDK data construct, so the three agree by
 * construction.
 */

export const tableName = 'cheat_sheet_requests';

/** Partition key: one item per request. */
export const partitionKey = 'id';

/** Finds an address's requests, newest first, for the send flag. */
export const emailIndex = {
  name: 'email-requested_at-index',
  partitionKey: 'email',
  sortKey: 'requested_at',
} as const;

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
}

/**
 * The daily cap's bookkeeping: a table of its own, so the requests table holds request items
 * only. One item per address that was sent the cheat sheet, keyed by the SHA-256 of the
 * lower-cased address: no address, no name. DynamoDB's TTL deletes an item once its newest send
 * no longer counts (`expires_at`); dynalite ignores TTL, and nothing depends on the deletion.
 */
export const sendQuotaTableName = 'cheat_sheet_send_quotas';

/** Partition key: the hex SHA-256 of the trimmed, lower-cased address. */
export const sendQuotaPartitionKey = 'id';

/** The TTL attribute: epoch seconds, the newest counted send plus the 24-hour window. */
export const sendQuotaExpiryAttribute = 'expires_at';

/** One address's send quota as stored. */
export interface SendQuotaItem {
  readonly id: string;
  /** ISO 8601 times of the sends that count towards the cap (older ones are dropped on write). */
  readonly recent_sends: string[];
  /** Bumped by every write; each write is conditional on the version it read. */
  readonly version: number;
  /** Epoch seconds after which the item counts nothing and DynamoDB's TTL may delete it. */
  readonly expires_at: number;
}
