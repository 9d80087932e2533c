/**
 * The shape of the `cheat_sheet_requests` table, shared by the functions, the local emulator
 * set-up and the CDK data construct, so the three agree by construction.
 */

export const tableName = 'cheat_sheet_requests';

/** Partition key: one item per request. */
export const partitionKey = 'id';

/** Finds an address's requests, newest first, for the send flag and the daily cap. */
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
