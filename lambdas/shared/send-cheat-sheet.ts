/**
 * Sending the cheat sheet: check that the recipient's domain takes mail, claim a slot of each of
 * the four limits, e-mail the PDF, then record the send. Knows nothing of HTTP or of which
 * services sit behind its dependencies.
 *
 * - The recipient's domain first (recipient-domain.ts), before any limit: a made-up address uses
 *   no slot and never becomes a bounce. A lookup that fails lets the send go on (fail open).
 * - The limits, each claimed atomically before SES is called, so parallel sends cannot overshoot
 *   any of them, in this order: the client's hourly limit, then its network's (rolling-counter.ts;
 *   first, so a script spraying addresses is stopped before it touches anything else), the
 *   address's daily cap on the normalized address (address-daily-cap.ts, address-normalization.ts: `+tag`
 *   and Gmail-dot variants share it), then the product's daily send budget (rolling-counter.ts;
 *   last, so only sends the others allow touch the one counter every send shares). A refusal, or a
 *   failure of SES (a paused sending included) or of a later claim, gives back every slot already
 *   taken: only e-mails sent count.
 * - Once SES accepted, the address's newest unsent request (whatever its age) is
 *   flagged `cheat_sheet_sent: true` with `sent_at`. It is found through the e-mail index, which
 *   in the cloud may lag a request saved a moment before: so an empty answer is asked again a
 *   few times, a short pause apart. If there is still none (the save step failed, or the API was
 *   called directly), the send is stored as a new item, sent, with `requested_at` = `sent_at`.
 */

import type { Logger } from '@aws-lambda-powertools/logger';
import type { CheatSheetRequests } from './cheat-sheet-requests';
import { limitReached, ProductError } from './errors';
import { describeErrorForLog } from './logger';
import type { CheatSheetRequest } from '../../core/api/request-schema';
import { normalizedAddress } from '../../core/data/address-normalization';
import {
  clientHourlySendCapSubject,
  networkHourlySendCapSubject,
  dailySendBudgetSubject,
} from '../../core/data/tables';
import { buildCheatSheetEmail } from '../../core/documents/cheat-sheet-email';
import type { SendEmail } from './email-sender';
import type { RecipientDomainCheck, RecipientDomainResult } from './recipient-domain';
import type { RollingCounter } from './rolling-counter';
import type { AddressDailyCapCounter } from './address-daily-cap';

/** Looks for the request to flag before recording the send as a new item. */
export const unsentRequestLookups = 3;
/** The pause between two looks: the e-mail index usually catches up within a fraction of a second. */
export const unsentRequestLookupIntervalMs = 150;

export interface SendCheatSheetDependencies {
  readonly requests: CheatSheetRequests;
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
  readonly senderEmail: string;
  readonly attachmentFileName: string;
  readonly addressDailyCap: number;
  readonly clientHourlySendCap: number;
  readonly networkHourlySendCap: number;
  readonly dailySendBudget: number;
  /** @default none: SES's defaults */
  readonly configurationSetName?: string;
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
  await checkRecipient(request.email, deps);
  // Before the claims: a missing PDF must not use up one of the visitor's sends.
  const pdf = await deps.loadPdf();
  const at = deps.now();

  const taken: TakenSlot[] = [];
  let messageId: string;
  try {
    const clientClaim = await deps.hourlySendCapCounter.claim(
      clientHourlySendCapSubject(deps.clientKey),
      at,
      deps.clientHourlySendCap,
    );
    if (!clientClaim) throw limitReached('clientHourlySendCapReached', deps.clientHourlySendCap);
    taken.push({ limit: 'client hourly limit', release: () => deps.hourlySendCapCounter.release(clientClaim) });

    const networkClaim = await deps.hourlySendCapCounter.claim(
      networkHourlySendCapSubject(deps.networkKey),
      at,
      deps.networkHourlySendCap,
    );
    if (!networkClaim) throw limitReached('networkHourlySendCapReached', deps.networkHourlySendCap);
    taken.push({ limit: 'network hourly limit', release: () => deps.hourlySendCapCounter.release(networkClaim) });

    // One mailbox, one cap: the typed address is still the one mailed and recorded.
    const addressClaim = await deps.addressDailyCapCounter.claim(
      normalizedAddress(request.email),
      at,
      deps.addressDailyCap,
    );
    if (!addressClaim) throw limitReached('addressDailyCapReached', deps.addressDailyCap);
    taken.push({ limit: 'daily cap', release: () => deps.addressDailyCapCounter.release(addressClaim) });

    const budgetClaim = await deps.dailySendBudgetCounter.claim(dailySendBudgetSubject, at, deps.dailySendBudget);
    if (!budgetClaim) throw limitReached('dailySendBudgetSpent', deps.dailySendBudget);
    taken.push({ limit: 'daily send budget', release: () => deps.dailySendBudgetCounter.release(budgetClaim) });

    ({ messageId } = await deps.sendEmail({
      from: deps.senderEmail,
      to: request.email,
      ...buildCheatSheetEmail({ name: request.name }),
      attachment: { fileName: deps.attachmentFileName, contentType: 'application/pdf', content: pdf },
      configurationSetName: deps.configurationSetName,
    }));
  } catch (error) {
    await releaseQuietly(taken, deps);
    throw error;
  }

  return { messageId, recordedAs: await recordSend(request, deps) };
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
