/**
 * Sending the cheat sheet: claim a slot of the daily cap, e-mail the PDF, then record the send.
 * Knows nothing of HTTP or of which services sit behind its dependencies.
 *
 * - The cap is the address's item in the quota table (send-quota.ts), claimed atomically before
 *   SES is called, so parallel sends cannot overshoot it. If SES then fails, the slot is given back.
 * - Once SES accepted, the address's newest unsent request (whatever its age) is
 *   flagged `cheat_sheet_sent: true` with `sent_at`. It is found through the e-mail index, which
 *   in the cloud may lag a request saved a moment before: so an empty answer is asked again a
 *   few times, a short pause apart. If there is still none (the save step failed, or the API was
 *   called directly), the send is stored as a new item, sent, with `requested_at` = `sent_at`.
 */

import type { Logger } from '@aws-lambda-powertools/logger';
import type { CheatSheetRequests } from '../shared/cheat-sheet-requests';
import { DailyLimitReachedError } from '../shared/errors';
import { describeErrorForLog } from '../shared/logger';
import type { CheatSheetRequest } from '../../core/api/request-schema';
import { buildCheatSheetEmail } from '../../core/documents/cheat-sheet-email';
import type { SendEmail } from './email-sender';
import type { SendQuota, SendQuotaClaim } from './send-quota';

/** Looks for the request to flag before recording the send as a new item. */
export const unsentRequestLookups = 3;
/** The pause between two looks: the e-mail index usually catches up within a fraction of a second. */
export const unsentRequestLookupIntervalMs = 150;

export interface SendCheatSheetDependencies {
  readonly requests: CheatSheetRequests;
  readonly quota: SendQuota;
  readonly loadPdf: () => Promise<Uint8Array>;
  readonly sendEmail: SendEmail;
  readonly senderEmail: string;
  readonly attachmentFileName: string;
  readonly dailyLimit: number;
  readonly now: () => Date;
  readonly pause: (ms: number) => Promise<void>;
  readonly logger: Pick<Logger, 'error' | 'warn'>;
}

export interface SendCheatSheetResult {
  readonly messageId: string;
  /** Which item now records the send: the flagged request, or a new item. */
  readonly recordedAs: 'flagged-request' | 'new-item' | 'not-recorded';
}

export async function sendCheatSheet(
  request: CheatSheetRequest,
  deps: SendCheatSheetDependencies,
): Promise<SendCheatSheetResult> {
  // Before the claim: a missing PDF must not use up one of the visitor's sends.
  const pdf = await deps.loadPdf();

  const claim = await deps.quota.claim(request.email, deps.now(), deps.dailyLimit);
  if (!claim) throw new DailyLimitReachedError(deps.dailyLimit);

  let messageId: string;
  try {
    ({ messageId } = await deps.sendEmail({
      from: deps.senderEmail,
      to: request.email,
      ...buildCheatSheetEmail({ name: request.name }),
      attachment: { fileName: deps.attachmentFileName, contentType: 'application/pdf', content: pdf },
    }));
  } catch (error) {
    await releaseQuietly(claim, deps);
    throw error;
  }

  return { messageId, recordedAs: await recordSend(request, deps) };
}

/** Nothing was sent, so the slot goes back; if that fails, the visitor has one send fewer today. */
async function releaseQuietly(claim: SendQuotaClaim, deps: SendCheatSheetDependencies): Promise<void> {
  try {
    await deps.quota.release(claim);
  } catch (error) {
    deps.logger.warn('Send failed and its daily-cap slot could not be given back', describeErrorForLog(error));
  }
}

/** The e-mail is out: a failure to record it must not turn the visitor's success into an error. */
async function recordSend(
  request: CheatSheetRequest,
  deps: SendCheatSheetDependencies,
): Promise<SendCheatSheetResult['recordedAs']> {
  try {
    for (let look = 1; look <= unsentRequestLookups; look += 1) {
      const newestUnsent = await deps.requests.findNewestUnsent(request.email);
      // A false markSent means a parallel send flagged it first: look again at once.
      if (newestUnsent && (await deps.requests.markSent(newestUnsent.id, deps.now()))) return 'flagged-request';
      if (!newestUnsent && look < unsentRequestLookups) await deps.pause(unsentRequestLookupIntervalMs);
    }
    await deps.requests.createSent(request, deps.now());
    return 'new-item';
  } catch (error) {
    deps.logger.error('Cheat sheet sent but the send could not be recorded', describeErrorForLog(error));
    return 'not-recorded';
  }
}
