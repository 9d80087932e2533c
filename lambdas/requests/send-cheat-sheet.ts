/**
 * Sending the cheat sheet: refuse a suppressed mailbox, claim the reader's request, check that the
 * recipient's domain takes mail, take a slot of each of the four limits, e-mail the PDF, then
 * record how it went. Knows nothing of HTTP or of which services sit behind its dependencies.
 *
 * - With a submission key (the page's `Idempotency-Key`, or the form's derived one), the request
 *   the key names (cheat-sheet-requests.ts) is claimed by its id when it is `requested` or
 *   `failed` (the claim's write answers the item); a claim refused reads it, consistently: `sending` (another send of the key holds it, or one stopped at its
 *   deadline after calling SES), the reply is 409 and nothing is sent; `unknown`, the reply is the
 *   unknown outcome's 503 and nothing is sent; sent (or after: an SES verdict), or superseded by
 *   a later request that reached the reader, the reply is the success and nothing is sent. With
 *   no request for the key (the save failed), one is created `sending` under the key's id just
 *   before SES is called; a parallel creation of the same key loses and reads the winner's.
 * - Without a key (the API called directly), the address's newest request a send may claim is
 *   found through the e-mail index (which in the cloud may lag a request saved a moment before:
 *   an empty answer is asked again a few times, a short pause apart), and claimed `sending` with a
 *   fresh token, so no other send (a parallel one, `npm run leads -- resend`) can take it. With
 *   none, a new item is stored `sending` just before SES is called, so a refused send stores
 *   nothing.
 * - A mailbox that bounced for good or complained (suppressions.ts) is refused before any limit:
 *   nothing is counted or sent, and its request, if it had one, is recorded `failed`.
 * - The recipient's domain (recipient-domain.ts), before any limit: a made-up address uses no
 *   slot and never becomes a bounce. A lookup that fails lets the send go on (fail open).
 * - The limits, each counted atomically before SES is called, so parallel sends cannot overshoot
 *   any of them, in this order: the client's hourly limit, then its network's (rolling-counter.ts;
 *   first, so a script spraying addresses is stopped before it touches anything else), the
 *   address's daily cap on the normalized address (address-daily-cap.ts, address-normalization.ts: `+tag`
 *   and Gmail-dot variants share it), then the product's daily send budget (rolling-counter.ts;
 *   last, so only sends the others allow touch the one counter every send shares). A refusal, or a
 *   failure of SES (a paused sending included) or of a later limit, gives back every slot already
 *   taken: only e-mails sent count.
 * - Then SES, at the account's rate (paced-send.ts): with no slot due, or throttled anyway, the
 *   request is handed to the send queue (send-queue.ts) still `sending` under this claim, its
 *   slots counted, and the reader's reply is the success: the queued sender (queued-send.ts)
 *   sends it once, at the pace. Without a queue (resend) the send waits for its slot.
 * - Then the record, each write only from `sending` (an SES event that came first keeps its
 *   verdict): `sent` with SES's message id once SES accepted (`cheat_sheet_sent`, `sent_at` as
 *   before); `failed` with the failure's code when SES provably took nothing or the send was
 *   refused (a later send or a resend may claim it again); `unknown` when the call left and no
 *   answer came: SES may have accepted it, so nothing sends it again automatically. After a
 *   send, the mailbox's older requests still claimable are marked superseded by it, so neither a
 *   send nor `resend` mails the reader a second copy.
 */

import type { Logger } from '@aws-lambda-powertools/logger';
import { failureKinds } from '../../core/api/catalogue/failures';
import type { CheatSheetRequests } from './cheat-sheet-requests';
import { failureKindOf, isFailureOf, limitReached, ProductError } from '../runtime/errors';
import type { Suppressions } from '../mail/suppressions';
import { describeErrorForLog } from '../runtime/logger';
import type { CheatSheetRequest } from '../../core/api/request-schema';
import { normalizedAddress } from '../../core/data/address-normalization';
import {
  clientHourlySendCapSubject,
  networkHourlySendCapSubject,
  dailySendBudgetSubject,
} from '../../core/data/tables';
import { mailingListJoinedAt } from '../../core/data/consent';
import { sesMayHaveAccepted, type SendEmail } from '../mail/email-sender';
import type { SendPace } from '../mail/send-pace';
import { cheatSheetMessage, type CheatSheetSender } from './cheat-sheet-message';
import { sendAtPace } from './paced-send';
import type { HandOff } from './send-queue';
import { recordSend, settleQuietly, supersedeOlderQuietly, type HeldRequest } from './send-records';
import type { RecipientDomainCheck, RecipientDomainResult } from '../mail/recipient-domain';
import type { RollingCounter } from '../limits/rolling-counter';
import type { AddressDailyCapCounter } from '../limits/address-daily-cap';
import { claimableStatuses, deliveryStatusOf, mailedStatuses } from '../../core/data/delivery-status';
import type { CheatSheetRequestItem } from '../../core/data/tables';

/** Looks for the request to claim before recording the send as a new item. */
export const unsentRequestLookups = 3;
/** The pause between two looks: the e-mail index usually catches up within a fraction of a second. */
export const unsentRequestLookupIntervalMs = 150;

export interface SendCheatSheetDependencies extends CheatSheetSender {
  readonly requests: CheatSheetRequests;
  /** The mailboxes that bounced for good or complained. */
  readonly suppressions: Pick<Suppressions, 'isSuppressed'>;
  /** A fresh claim token (a UUID). */
  readonly newToken: () => string;
  /** Told of a send SES may have accepted without answering (recorded `unknown`): the caller counts it. */
  readonly onOutcomeUnknown?: () => void;
  /** Told of a send SES accepted that could not be recorded: the caller counts it. */
  readonly onNotRecorded?: () => void;
  /** The per-address daily cap. */
  readonly addressDailyCapCounter: AddressDailyCapCounter;
  /** The per-client and per-network hourly counters (one window, two subjects). */
  readonly hourlySendCapCounter: RollingCounter;
  /** The product's daily send budget. */
  readonly dailySendBudgetCounter: RollingCounter;
  /** Who is asking: the keyed hash of the client's network (client-address.ts), never an address. */
  readonly clientKey: string;
  /** The keyed hash of the client's wider network (IPv4 /24, IPv6 /48). */
  readonly networkKey: string;
  /** @default none: no lookup (`CHEAT_SHEET_RECIPIENT_DOMAIN_CHECK=off`) */
  readonly checkRecipientDomain?: RecipientDomainCheck;
  /** Told of a lookup that failed or timed out: the send goes on, and the caller counts it. */
  readonly onRecipientDomainUnknown?: (result: RecipientDomainResult) => void;
  readonly loadPdf: () => Promise<Uint8Array>;
  readonly sendEmail: SendEmail;
  readonly addressDailyCap: number;
  readonly clientHourlySendCap: number;
  readonly networkHourlySendCap: number;
  readonly dailySendBudget: number;
  readonly now: () => Date;
  /**
   * The time left in the function: no SES attempt starts without the time it may take.
   *
   * @default none: no such check (a caller with no deadline)
   */
  readonly remainingTimeMs?: () => number;
  readonly pause: (ms: number) => Promise<void>;
  /** SES's rate, shared by every sender. @default none: no pace kept */
  readonly sendPace?: SendPace;
  /** Accepts a send SES's rate has no slot for: the queue. @default none: the send waits for a slot (resend) */
  readonly handOff?: HandOff;
  readonly logger: Pick<Logger, 'error' | 'warn'>;
  /** The canary's send, to the simulator (core/data/canary-mark.ts): no slot of the limits. @default false */
  readonly canary?: boolean;
}

export interface SendCheatSheetResult {
  readonly messageId: string;
  /** The request the send is recorded on. */
  readonly requestId: string;
  /**
   * Which item records the send: the reader's request, a new item, or none (its update failed);
   * `already-sent` when the submission's key had gone out before, and nothing was sent now.
   */
  readonly recordedAs: 'claimed-request' | 'new-item' | 'not-recorded' | 'already-sent' | 'queued';
}

/** Which request a send is for: a resend's one request, or a submission's key; neither looks the address up. */
export type SendTarget =
  /** `npm run leads -- resend`: send for this one request, or not at all. */
  | { readonly requestId: string; readonly submissionKey?: never }
  /** The submission's `Idempotency-Key`: the request it names, or a new one under its id. */
  | { readonly submissionKey: string; readonly requestId?: never };

/** A resend found the request claimed already (by another run, or a send of the reader's): nothing was sent. */
export class RequestNotClaimableError extends Error {
  override readonly name = 'RequestNotClaimableError';
}

/** The key's request went out already (or a later one reached the reader): answered as sent, nothing sent. */
interface AlreadySent {
  readonly alreadySent: CheatSheetRequestItem;
}

/** An earlier send under the key may have reached SES: the reply of an unknown outcome, and nothing sent. */
export class EarlierOutcomeUnknown extends Error {
  override readonly name = 'EarlierOutcomeUnknown';
}

/**
 * Whether a failed send may have reached SES: its answer was lost (`sesMayHaveAccepted`), or an
 * earlier send of the same key was recorded `unknown`. Such a reply is kept under the key.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  return (
    isFailureOf(error, 'emailServiceUnavailable') &&
    (error.cause instanceof EarlierOutcomeUnknown || sesMayHaveAccepted(error.cause))
  );
}

export async function sendCheatSheet(
  request: CheatSheetRequest,
  deps: SendCheatSheetDependencies,
  target?: SendTarget,
): Promise<SendCheatSheetResult> {
  const claimed = await claimRequest(request, deps, target);
  if (claimed !== undefined && 'alreadySent' in claimed) {
    return {
      messageId: claimed.alreadySent.ses_message_id ?? '',
      requestId: claimed.alreadySent.id,
      recordedAs: 'already-sent',
    };
  }
  let held = claimed;

  const taken: TakenSlot[] = [];
  let messageId: string;
  try {
    // After the claim, so a request saved before its mailbox bounced is recorded failed, not left waiting.
    if (await deps.suppressions.isSuppressed(request.email)) {
      throw new ProductError(
        'addressSuppressed',
        'The mailbox bounced for good or complained before: not mailed again',
      );
    }
    await checkRecipient(request.email, deps);
    // Before the limits: a missing PDF must not use up one of the visitor's sends.
    const pdf = await deps.loadPdf();
    const at = deps.now();

    // The canary's send (to the simulator) takes no slot of the limits readers share.
    if (!deps.canary) {
      // Both caps' earlier buckets in one read; each count then only writes.
      await deps.hourlySendCapCounter.prepare(
        [clientHourlySendCapSubject(deps.clientKey), networkHourlySendCapSubject(deps.networkKey)],
        at,
      );
      const clientSlot = await deps.hourlySendCapCounter.count(
        clientHourlySendCapSubject(deps.clientKey),
        at,
        deps.clientHourlySendCap,
      );
      if (!clientSlot) throw limitReached('clientHourlySendCapReached', deps.clientHourlySendCap);
      taken.push({ limit: 'client hourly limit', release: () => deps.hourlySendCapCounter.release(clientSlot) });

      const networkSlot = await deps.hourlySendCapCounter.count(
        networkHourlySendCapSubject(deps.networkKey),
        at,
        deps.networkHourlySendCap,
      );
      if (!networkSlot) throw limitReached('networkHourlySendCapReached', deps.networkHourlySendCap);
      taken.push({ limit: 'network hourly limit', release: () => deps.hourlySendCapCounter.release(networkSlot) });

      // One mailbox, one cap: the typed address is still the one mailed and recorded.
      const addressSlot = await deps.addressDailyCapCounter.takeSlot(
        normalizedAddress(request.email),
        at,
        deps.addressDailyCap,
      );
      if (!addressSlot) throw limitReached('addressDailyCapReached', deps.addressDailyCap);
      taken.push({ limit: 'daily cap', release: () => deps.addressDailyCapCounter.release(addressSlot) });

      const budgetSlot = await deps.dailySendBudgetCounter.count(dailySendBudgetSubject, at, deps.dailySendBudget);
      if (!budgetSlot) throw limitReached('dailySendBudgetSpent', deps.dailySendBudget);
      taken.push({ limit: 'daily send budget', release: () => deps.dailySendBudgetCounter.release(budgetSlot) });
    }

    // No request to claim: the send is stored now, `sending`, so it is on record before SES is called.
    if (held === undefined) {
      const token = deps.newToken();
      const item = await deps.requests.createSending(request, token, deps.now(), target?.submissionKey);
      // Only with a key: a parallel send of it (or its save) wrote its request first; that one decides.
      if (item === undefined)
        throw new ProductError('idempotencyKeyInUse', 'Another send of this key created its request first');
      held = { id: item.id, token, isNew: true, requestedAt: item.requested_at };
    }

    const sent = await sendAtPace(
      // The reader's answer as stored with the request (a send without a saved request has none: the promise stands).
      cheatSheetMessage(
        deps,
        { email: request.email, name: request.name, requestId: held.id, joinedListAt: held.joinedListAt },
        pdf,
      ),
      deps,
      deps.handOff ? 'hand-off' : 'wait',
    );
    if ('busy' in sent) {
      if (!deps.handOff) throw new ProductError('emailServiceUnavailable', "SES's rate left no slot in the time left");
      // Accepted: the queued sender sends it at SES's pace, under this claim; its slots stay counted.
      await deps.handOff({ requestId: held.id, token: held.token });
      return { messageId: '', requestId: held.id, recordedAs: 'queued' };
    }
    ({ messageId } = sent);
  } catch (error) {
    // SES may have accepted it: its slots stay counted, and the request is never sent again by itself.
    if (isOutcomeUnknown(error)) {
      deps.onOutcomeUnknown?.();
      if (held) await settleQuietly(() => deps.requests.markUnknown(held!.id, held!.token, deps.now()), deps);
      throw error;
    }
    await releaseQuietly(taken, deps);
    if (held) {
      const code = failureKinds[failureKindOf(error)].code;
      await settleQuietly(() => deps.requests.markFailed(held!.id, held!.token, code, deps.now()), deps);
    }
    throw error;
  }

  const recordedAs = await recordSend(held, messageId, deps);
  await supersedeOlderQuietly(request.email, held, deps);
  return { messageId, requestId: held.id, recordedAs };
}

/**
 * The request this send holds: the resend's, the key's, or (without either) the address's newest
 * claimable one; undefined leaves it to a new item; `alreadySent` when the key's went out already.
 */
async function claimRequest(
  request: CheatSheetRequest,
  deps: SendCheatSheetDependencies,
  target: SendTarget | undefined,
): Promise<HeldRequest | AlreadySent | undefined> {
  const token = deps.newToken();
  const at = deps.now();
  if (target?.requestId !== undefined) {
    if (!(await deps.requests.claim(target.requestId, token, at))) {
      throw new RequestNotClaimableError(`Request ${target.requestId} is not requested or failed any more`);
    }
    const item = await deps.requests.findById(target.requestId);
    return {
      id: target.requestId,
      token,
      isNew: false,
      requestedAt: item?.requested_at ?? at.toISOString(),
      joinedListAt: item && mailingListJoinedAt(item),
    };
  }
  if (target?.submissionKey !== undefined) return claimKeyRequest(request, target.submissionKey, token, at, deps);
  for (let look = 1; look <= unsentRequestLookups; look += 1) {
    const newest = await deps.requests.findNewestClaimable(request.email);
    // A false claim means a parallel send took it first: look again at once.
    if (newest && (await deps.requests.claim(newest.id, token, at))) {
      return {
        id: newest.id,
        token,
        isNew: false,
        requestedAt: newest.requested_at,
        joinedListAt: mailingListJoinedAt(newest),
      };
    }
    if (!newest && look < unsentRequestLookups) await deps.pause(unsentRequestLookupIntervalMs);
  }
  return undefined;
}

/**
 * The request the submission's key names, by its id (no index): claimed at once with one conditional
 * write; a claim refused reads the item (consistently) to answer why, or finds none yet.
 */
async function claimKeyRequest(
  request: CheatSheetRequest,
  submissionKey: string,
  token: string,
  at: Date,
  deps: SendCheatSheetDependencies,
): Promise<HeldRequest | AlreadySent | undefined> {
  const claimed = await deps.requests.claimSubmission(submissionKey, request.email, token, at);
  if (claimed !== undefined) {
    return {
      id: claimed.id,
      token,
      isNew: false,
      requestedAt: claimed.requested_at,
      joinedListAt: mailingListJoinedAt(claimed),
    };
  }
  const item = await deps.requests.findBySubmissionKey(submissionKey);
  if (item === undefined) return undefined;
  if (item.email !== request.email) {
    throw new ProductError('idempotencyKeyReused', "The key's request was saved for another address");
  }
  const status = deliveryStatusOf(item);
  if (mailedStatuses.includes(status) || item.superseded_by !== undefined) return { alreadySent: item };
  if (status === 'unknown') {
    throw new ProductError(
      'emailServiceUnavailable',
      'An earlier send of this key may have reached SES: not sent again',
      {
        cause: new EarlierOutcomeUnknown(`Request ${item.id} is unknown`),
      },
    );
  }
  if (claimableStatuses.includes(status) && (await deps.requests.claim(item.id, token, at))) {
    return {
      id: item.id,
      token,
      isNew: false,
      requestedAt: item.requested_at,
      joinedListAt: mailingListJoinedAt(item),
    };
  }
  // `sending`: another send of the key holds it, or one stopped after calling SES (its events will settle it).
  throw new ProductError('idempotencyKeyInUse', `Request ${item.id} is being sent under this key`);
}

/** Refuses an address whose domain takes no mail; an unknown answer is reported and let through. */
async function checkRecipient(email: string, deps: SendCheatSheetDependencies): Promise<void> {
  if (!deps.checkRecipientDomain) return;
  const result = await deps.checkRecipientDomain(email.slice(email.lastIndexOf('@') + 1));
  if (result.verdict === 'refuses') {
    throw new ProductError('undeliverableAddress', `The recipient's domain takes no mail (${result.reason})`);
  }
  if (result.verdict === 'unknown') deps.onRecipientDomainUnknown?.(result);
}

interface TakenSlot {
  readonly limit: string;
  readonly release: () => Promise<void>;
}

/** Nothing was sent, so every slot goes back; one that cannot means one send fewer for a while. */
async function releaseQuietly(taken: readonly TakenSlot[], deps: SendCheatSheetDependencies): Promise<void> {
  for (const slot of [...taken].reverse()) {
    try {
      await slot.release();
    } catch (error) {
      deps.logger.warn(`Send failed and its ${slot.limit} slot could not be given back`, describeErrorForLog(error));
    }
  }
}
