/**
 * One SES call at the account's pace (lambdas/mail/send-pace.ts). Every send of the product goes
 * through it: the send route's, the queued sender's and `npm run leads -- resend`'s.
 *
 * - `busy: 'hand-off'` (the send route): no slot due, or SES throttled the call anyway (another
 *   sender of the account), answers `busy` at once: the route hands the request to the queue and
 *   the reader's reply never waits for SES's rate.
 * - `busy: 'wait'` (the queued sender, resend): waits for the next slot and tries a throttled call
 *   again, while the time left allows both the wait and the call; then `busy`.
 */

import type { OutgoingEmail, SendEmail, SendTime } from '../mail/email-sender';
import { timeNeededPerAttemptMs, wasThrottled } from '../mail/email-sender';
import type { SendPace } from '../mail/send-pace';

export interface PacedSendDependencies {
  /** @default none: no pace kept (a caller that is the only sender, as a test's) */
  readonly sendPace?: SendPace;
  readonly sendEmail: SendEmail;
  readonly now: () => Date;
  readonly pause: (ms: number) => Promise<void>;
  /** @default none: no deadline (resend), bounded by `maxWaitMs` */
  readonly remainingTimeMs?: () => number;
}

/** With no deadline: how long a waiting send keeps trying at the pace before it gives up (resend's bound). */
export const maxWaitMs = 60_000;

/** After a throttle, before the next slot is asked for: SES's throttling clears within a second. */
const throttledPauseMs = 200;

export type PacedSendResult = { readonly messageId: string } | { readonly busy: true };

export async function sendAtPace(
  email: OutgoingEmail,
  deps: PacedSendDependencies,
  busy: 'hand-off' | 'wait',
): Promise<PacedSendResult> {
  const time: SendTime | undefined = deps.remainingTimeMs && { remainingTimeMs: deps.remainingTimeMs };
  const giveUpAt = deps.now().getTime() + maxWaitMs;
  const canWait = (ms: number) =>
    deps.remainingTimeMs ? deps.remainingTimeMs() - ms >= timeNeededPerAttemptMs : deps.now().getTime() + ms < giveUpAt;
  for (;;) {
    const slot = deps.sendPace ? await deps.sendPace.take(deps.now()) : ({ taken: true } as const);
    if (!slot.taken) {
      const waitMs = Math.max(1, slot.nextAt - deps.now().getTime());
      if (busy === 'hand-off' || !canWait(waitMs)) return { busy: true };
      await deps.pause(waitMs);
      continue;
    }
    try {
      return await deps.sendEmail(email, time);
    } catch (error) {
      // Throttled: SES took nothing. Handed off, or tried again at the next slot.
      if (!wasThrottled(error)) throw error;
      if (busy === 'hand-off' || !canWait(throttledPauseMs)) return { busy: true };
      await deps.pause(throttledPauseMs);
    }
  }
}
