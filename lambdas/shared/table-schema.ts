/**
 * The shape of the `cheat_sheet_requests` table, shared by the functions, the local emulator
 * set-up and the CDK data construct, so the three agree by construction.
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
 * The daily cap's bookkeeping lives in the same table, one item per address that was ever sent
 * the cheat sheet, under an id that can never be a request's (those are UUIDs):
 * `send-quota#` + the SHA-256 of the lower-cased address. It holds no address and no name, and
 * no `email` or `requested_at`, so it stays out of the e-mail index and out of every query.
 */
export const sendQuotaIdPrefix = 'send-quota#';

/** One address's send quota as stored. */
export interface SendQuotaItem {
  readonly id: string;
  /** ISO 8601 times of the sends that count towards the cap (older ones are dropped on write). */
  readonly recent_sends: string[];
  /** Bumped by every write; each write is conditional on the version it read. */
  readonly version: number;
}
