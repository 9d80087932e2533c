/**
 * What a send records once SES answered, shared by the send route (send-cheat-sheet.ts) and the
 * queued sender (queued-send.ts): `sent` with the message id, then the mailbox's older requests
 * superseded; `failed` or `unknown`. A write that fails is logged, never turned into the reader's error.
 */

import type { Logger } from '@aws-lambda-powertools/logger';
import type { CheatSheetRequests } from './cheat-sheet-requests';
import { describeErrorForLog } from '../runtime/logger';

/** The request a send holds: its id, its claim token and when it was saved. */
export interface HeldRequest {
  readonly id: string;
  readonly token: string;
  readonly isNew: boolean;
  /** When the held request was saved: requests saved up to then are superseded by its send. */
  readonly requestedAt: string;
  /** The mail provider whose list the reader chose to join, from the stored consent: the e-mail says so. */
  readonly joinedListAt?: string;
}

export interface SendRecordDependencies {
  readonly requests: Pick<CheatSheetRequests, 'markSent' | 'supersedeOlder'>;
  /** Told of a send SES accepted that could not be recorded: the caller counts it. */
  readonly onNotRecorded?: () => void;
  readonly now: () => Date;
  readonly logger: Pick<Logger, 'error' | 'warn'>;
}

export type RecordedAs = 'claimed-request' | 'new-item' | 'not-recorded';

/** The reader has the sheet: older requests still waiting are marked so; a failure is logged (resend checks again). */
export async function supersedeOlderQuietly(
  email: string,
  held: HeldRequest,
  deps: SendRecordDependencies,
): Promise<void> {
  try {
    await deps.requests.supersedeOlder({ id: held.id, email, requested_at: held.requestedAt }, deps.now());
  } catch (error) {
    deps.logger.warn('Cheat sheet sent; its older requests could not be marked superseded', {
      requestId: held.id,
      ...describeErrorForLog(error),
    });
  }
}

/** Records a failed or unknown send; a record that cannot be written is logged (the unsent check finds it). */
export async function settleQuietly(write: () => Promise<boolean>, deps: SendRecordDependencies): Promise<void> {
  try {
    await write();
  } catch (error) {
    deps.logger.error('The send failed and its request could not be updated', describeErrorForLog(error));
  }
}

/** The e-mail is out: a failure to record it must not turn the visitor's success into an error. */
export async function recordSend(
  held: HeldRequest,
  messageId: string,
  deps: SendRecordDependencies,
): Promise<RecordedAs> {
  try {
    const recorded = await deps.requests.markSent(held.id, held.token, messageId, deps.now());
    if (recorded !== 'not-held') return held.isNew ? 'new-item' : 'claimed-request';
    deps.logger.error('Cheat sheet sent but its request was claimed by another send', { requestId: held.id });
  } catch (error) {
    deps.logger.error('Cheat sheet sent but the send could not be recorded', {
      requestId: held.id,
      ...describeErrorForLog(error),
    });
  }
  deps.onNotRecorded?.();
  return 'not-recorded';
}
