/**
 * The queued sender's one message (send-queue.ts): a request the send route accepted and handed
 * on, still `sending` under the route's claim. Sent exactly once, at SES's pace:
 *
 * - The attempt begins with one conditional write that returns the item (queued-attempts.ts): a
 *   second delivery of the message, or one after a sender stopped once SES had it, finds the
 *   attempt begun and sends nothing (`not-held`), as a stopped send route never sends twice.
 * - It waits for its slot of SES's rate (paced-send.ts) and tries a throttled call again itself,
 *   while the invocation's time allows; past that, or SES unavailable, or the PDF or the table
 *   unreadable, it ends its attempt (nothing went out) and the message comes back (`retry`).
 * - Then the record, as the route's (send-records.ts): `sent` and the older requests superseded;
 *   `unknown` when the call left and no answer came (never sent again); `failed` with the code when
 *   SES refused it for good (the sender, the recipient, a paused sending): resend may take it.
 *   Its slots of the limits stay counted: the route took them when it accepted the request.
 */

import type { Logger } from '@aws-lambda-powertools/logger';
import { failureKinds, type FailureKindName } from '../../core/api/catalogue/failures';
import { mailingListJoinedAt } from '../../core/data/consent';
import { failureKindOf } from '../runtime/errors';
import type { CheatSheetRequests } from './cheat-sheet-requests';
import { cheatSheetMessage, type CheatSheetSender } from './cheat-sheet-message';
import { sendAtPace, type PacedSendDependencies, type PacedSendResult } from './paced-send';
import type { QueuedAttempts } from './queued-attempts';
import { isOutcomeUnknown } from './send-cheat-sheet';
import type { QueuedSendMessage } from './send-queue';
import { recordSend, settleQuietly, supersedeOlderQuietly, type HeldRequest } from './send-records';

export interface QueuedSendDependencies extends PacedSendDependencies, CheatSheetSender {
  readonly attempts: QueuedAttempts;
  readonly requests: Pick<CheatSheetRequests, 'markSent' | 'markFailed' | 'markUnknown' | 'supersedeOlder'>;
  readonly loadPdf: () => Promise<Uint8Array>;
  /** Told of a send SES may have accepted without answering (recorded `unknown`). */
  readonly onOutcomeUnknown?: () => void;
  /** Told of a send SES accepted that could not be recorded. */
  readonly onNotRecorded?: () => void;
  readonly logger: Pick<Logger, 'error' | 'warn'>;
}

export type QueuedSendOutcome = 'sent' | 'not-held' | 'retry' | 'failed' | 'unknown';

/** Failures that prove nothing went out and may pass: the message comes back later. */
const passingKinds: ReadonlySet<FailureKindName> = new Set([
  'emailServiceUnavailable',
  'storageUnavailable',
  'cheatSheetUnavailable',
]);

export async function sendQueued(message: QueuedSendMessage, deps: QueuedSendDependencies): Promise<QueuedSendOutcome> {
  const beganAt = deps.now();
  const item = await deps.attempts.begin(message.requestId, message.token, beganAt);
  if (item === undefined) return 'not-held';
  const held: HeldRequest = {
    id: item.id,
    token: message.token,
    isNew: false,
    requestedAt: item.requested_at,
    joinedListAt: mailingListJoinedAt(item),
  };
  const endAttempt = async (): Promise<'retry'> => {
    await settleQuietly(() => deps.attempts.end(held.id, held.token, beganAt), deps);
    return 'retry';
  };

  let sent: PacedSendResult;
  try {
    const pdf = await deps.loadPdf();
    sent = await sendAtPace(
      cheatSheetMessage(
        deps,
        { email: item.email, name: item.name, requestId: held.id, joinedListAt: held.joinedListAt },
        pdf,
      ),
      deps,
      'wait',
    );
  } catch (error) {
    if (isOutcomeUnknown(error)) {
      deps.onOutcomeUnknown?.();
      await settleQuietly(() => deps.requests.markUnknown(held.id, held.token, deps.now()), deps);
      return 'unknown';
    }
    if (passingKinds.has(failureKindOf(error))) return endAttempt();
    const code = failureKinds[failureKindOf(error)].code;
    await settleQuietly(() => deps.requests.markFailed(held.id, held.token, code, deps.now()), deps);
    return 'failed';
  }
  if ('busy' in sent) return endAttempt();

  await recordSend(held, sent.messageId, deps);
  await supersedeOlderQuietly(item.email, held, deps);
  return 'sent';
}
