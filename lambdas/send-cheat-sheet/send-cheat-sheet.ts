/**
 * Sending the cheat sheet: enforce the daily cap, e-mail the PDF, then record the send.
 * Knows nothing of HTTP or of which services sit behind its dependencies.
 *
 * How sends are recorded, and why the cap can rely on it:
 * - After SES accepts, the address's newest unsent request of the last 24 hours is flagged
 *   `cheat_sheet_sent: true` with `sent_at`. (The page saves the request a moment before asking
 *   for the send; an unsent request older than a day belongs to no current send.)
 * - If there is none (the save step failed, or the API was called directly), a new item is
 *   stored with `cheat_sheet_sent: true` and `requested_at` = `sent_at`, so the send still counts.
 * - So every send's `requested_at` is at most 24 hours before its `sent_at`, and the sends of the
 *   last 24 hours are all among the requests of the last 48 hours: one bounded query on the
 *   address's index serves both the cap and the flag.
 */

import type { Logger } from '@aws-lambda-powertools/logger';
import type { CheatSheetRequests } from '../shared/cheat-sheet-requests';
import { DailyLimitReachedError } from '../shared/errors';
import { describeErrorForLog } from '../shared/logger';
import type { CheatSheetRequest } from '../shared/request-schema';
import { buildCheatSheetEmail } from './cheat-sheet-email';
import type { SendEmail } from './email-sender';

const dayMs = 24 * 60 * 60 * 1000;

export interface SendCheatSheetDependencies {
  readonly requests: CheatSheetRequests;
  readonly loadPdf: () => Promise<Uint8Array>;
  readonly sendEmail: SendEmail;
  readonly senderEmail: string;
  readonly attachmentFileName: string;
  readonly dailyLimit: number;
  readonly now: () => Date;
  readonly logger: Pick<Logger, 'error'>;
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
  const startedAt = deps.now();
  const capWindowStart = new Date(startedAt.getTime() - dayMs);

  const [recentRequests, pdf] = await Promise.all([
    deps.requests.findSince(request.email, new Date(startedAt.getTime() - 2 * dayMs)),
    deps.loadPdf(),
  ]);

  const sendsInWindow = recentRequests.filter(
    (item) => item.cheat_sheet_sent && item.sent_at !== undefined && item.sent_at >= capWindowStart.toISOString(),
  ).length;
  if (sendsInWindow >= deps.dailyLimit) throw new DailyLimitReachedError(deps.dailyLimit);

  const { messageId } = await deps.sendEmail({
    from: deps.senderEmail,
    to: request.email,
    ...buildCheatSheetEmail({ name: request.name }),
    attachment: { fileName: deps.attachmentFileName, contentType: 'application/pdf', content: pdf },
  });

  // The e-mail is out: a failure to record it must not turn the visitor's success into an error.
  try {
    const sentAt = deps.now();
    const newestUnsent = recentRequests.find(
      (item) => !item.cheat_sheet_sent && item.requested_at >= capWindowStart.toISOString(),
    );
    if (newestUnsent && (await deps.requests.markSent(newestUnsent.id, sentAt))) {
      return { messageId, recordedAs: 'flagged-request' };
    }
    await deps.requests.createSent(request, sentAt);
    return { messageId, recordedAs: 'new-item' };
  } catch (error) {
    deps.logger.error('Cheat sheet sent but the send could not be recorded', describeErrorForLog(error));
    return { messageId, recordedAs: 'not-recorded' };
  }
}
