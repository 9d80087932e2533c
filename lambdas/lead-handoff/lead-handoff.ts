/**
 * Handing each consenting lead to the author's mail provider, exactly once as the provider sees it.
 *
 * The path: the save writes the request item (the outbox); the requests table's stream gives the
 * function each new item that carries a consent (an event source filter: nothing else invokes it),
 * and the function puts the request's id, nothing more, on the hand-off queue (`enqueueLeads`).
 * From the queue, each message is one attempt (`handOffMessages`):
 *
 * - the item is read afresh: gone (erased) or already `accepted` → nothing is sent again;
 * - the provider's call is an upsert by address (Kit, MailerLite), a PUT by the address's hash
 *   (Mailchimp) or a delivery under the lead's stable `webhook-id`: a second call after a timeout
 *   the provider had in fact accepted leaves one subscriber;
 * - accepted → recorded on the item, message deleted;
 * - worth retrying (a timeout, 429, 5xx) → recorded as `retrying`, and the message comes back after
 *   the Standard Webhooks schedule's next delay (or the provider's longer `Retry-After`), by
 *   changing its visibility; after the eighth attempt it stops as `exhausted`;
 * - stopped (401/403, 410, another 4xx, the key not set) → recorded as `stopped` with its reason,
 *   and moved to the dead-letter queue at once, whose alarm opens the operator's ticket; the
 *   author reads it in the weekly digest.
 */

import { joinedMailingList } from '../../core/data/consent';
import type { Logger } from '@aws-lambda-powertools/logger';
import {
  maxHandoffAttempts,
  retryDelayAfter,
  type HandoffRecord,
  type HandoffStopReason,
  type MailProvider,
} from '../../core/data/mail-provider';
import type { Lead, MailProviderClient, ProviderAnswer } from '../mail-provider/mail-provider-client';
import type { HandoffItem, HandoffRecords } from './handoff-records';
import { MissingProviderKeyError } from '../mail-provider/provider-key';

/** The queue's message: the request's id only, so no name or address waits in a queue. */
export interface HandoffMessage {
  readonly requestId: string;
}

/** One message as the SQS event source delivers it. */
export interface QueuedHandoff {
  readonly messageId: string;
  readonly receiptHandle: string;
  readonly body: string;
  /** SQS's ApproximateReceiveCount: this attempt's number. */
  readonly receiveCount: number;
}

export interface HandoffQueue {
  /** Puts each request's message on the hand-off queue. */
  enqueue(messages: readonly HandoffMessage[]): Promise<void>;
  /** Hides the message for `seconds`: its next attempt comes then. */
  retryLater(receiptHandle: string, seconds: number): Promise<void>;
  /** Moves the message to the dead-letter queue (its alarm is the operator's ticket). */
  deadLetter(body: string, reason: string): Promise<void>;
}

export interface HandoffDependencies {
  readonly provider: MailProvider;
  readonly records: HandoffRecords;
  /** The provider's client, with its key (read from the secret when first needed). */
  readonly client: () => Promise<MailProviderClient>;
  readonly queue: HandoffQueue;
  readonly now: () => Date;
  readonly logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** What became of one message. */
export type HandoffOutcome =
  | 'accepted'
  | 'retrying'
  | 'stopped'
  | 'already-accepted'
  | 'no-request'
  | 'no-consent'
  | 'malformed';

export { MissingProviderKeyError };

/** The request ids of stream records (already filtered to inserts carrying a consent), for the queue. */
export function enqueueableLeads(
  records: readonly {
    readonly eventName?: string;
    readonly dynamodb?: { readonly Keys?: Record<string, { S?: string }> };
  }[],
): HandoffMessage[] {
  return records.flatMap((record) => {
    const id = record.dynamodb?.Keys?.id?.S;
    return record.eventName === 'INSERT' && id ? [{ requestId: id }] : [];
  });
}

function parseMessage(body: string): HandoffMessage | undefined {
  try {
    const parsed = JSON.parse(body) as { requestId?: unknown };
    return typeof parsed.requestId === 'string' && parsed.requestId !== ''
      ? { requestId: parsed.requestId }
      : undefined;
  } catch {
    return undefined;
  }
}

function leadOf(item: HandoffItem): Lead | undefined {
  const consentedAt = item.consent?.at;
  // The canary's request records no consent; were one to, it is still no lead (core/data/canary-mark.ts).
  // Only a reader who ticked the mailing-list box: the stream's filter already says so, this makes sure.
  if (!consentedAt || item.canary === true || !joinedMailingList(item)) return undefined;
  if (typeof item.email !== 'string' || typeof item.name !== 'string') return undefined;
  return { id: item.id, name: item.name, email: item.email, requestedAt: item.requested_at, consentedAt };
}

async function attempt(deps: HandoffDependencies, lead: Lead): Promise<ProviderAnswer> {
  let client: MailProviderClient;
  try {
    client = await deps.client();
  } catch (error) {
    if (error instanceof MissingProviderKeyError) {
      return { kind: 'stop', status: 401, reason: 'authentication', detail: error.message };
    }
    // The secret could not be read now (a throttle, a network fault): the schedule tries again.
    return { kind: 'retry', detail: `the provider's key could not be read (${(error as Error).name})` };
  }
  return client.handOff(lead);
}

/**
 * One attempt per message. Returns the ids of the messages to leave on the queue (their
 * visibility already set to the next attempt's time): the SQS event source's batch item failures.
 */
export async function handOffMessages(
  messages: readonly QueuedHandoff[],
  deps: HandoffDependencies,
): Promise<{ readonly retry: readonly string[]; readonly outcomes: readonly HandoffOutcome[] }> {
  const retry: string[] = [];
  const outcomes: HandoffOutcome[] = [];
  for (const message of messages) {
    const outcome = await handOffOne(message, deps);
    outcomes.push(outcome);
    if (outcome === 'retrying') retry.push(message.messageId);
  }
  return { retry, outcomes };
}

async function handOffOne(message: QueuedHandoff, deps: HandoffDependencies): Promise<HandoffOutcome> {
  const parsed = parseMessage(message.body);
  if (!parsed) {
    deps.logger.error('Hand-off message malformed: moved to the dead-letter queue', { messageId: message.messageId });
    await deps.queue.deadLetter(message.body, 'malformed');
    return 'malformed';
  }
  const { requestId } = parsed;
  const item = await deps.records.find(requestId);
  if (!item) {
    deps.logger.info('Hand-off skipped: the request is gone (erased)', { requestItemId: requestId });
    return 'no-request';
  }
  if (item.mail_provider_handoff?.result === 'accepted') {
    deps.logger.info('Hand-off skipped: the provider accepted it before', { requestItemId: requestId });
    return 'already-accepted';
  }
  const lead = leadOf(item);
  if (!lead) {
    deps.logger.info('Hand-off skipped: the reader did not choose to join the list', { requestItemId: requestId });
    return 'no-consent';
  }

  const at = deps.now();
  const attempts = message.receiveCount;
  const answer = await attempt(deps, lead);
  const base = { provider: deps.provider, at: at.toISOString(), attempts } as const;
  const status = 'status' in answer && answer.status !== undefined ? { status: answer.status } : {};

  if (answer.kind === 'accepted') {
    await deps.records.record(requestId, { ...base, ...status, result: 'accepted', accepted_at: at.toISOString() });
    deps.logger.info('Lead handed to the mail provider', { requestItemId: requestId, attempts, ...status });
    return 'accepted';
  }

  const delay = answer.kind === 'retry' ? retryDelayAfter(attempts, answer.retryAfterSeconds) : null;
  if (answer.kind === 'retry' && delay !== null) {
    const next = new Date(at.getTime() + delay * 1000).toISOString();
    await deps.records.record(requestId, { ...base, ...status, result: 'retrying', next_attempt_at: next });
    await deps.queue.retryLater(message.receiptHandle, delay);
    deps.logger.warn('Hand-off failed: retrying', {
      requestItemId: requestId,
      attempts,
      detail: answer.detail,
      retryInSeconds: delay,
    });
    return 'retrying';
  }

  const reason: HandoffStopReason = answer.kind === 'stop' ? answer.reason : 'exhausted';
  const record: HandoffRecord = { ...base, ...status, result: 'stopped', reason };
  await deps.records.record(requestId, record);
  await deps.queue.deadLetter(message.body, reason);
  deps.logger.error('Hand-off stopped: moved to the dead-letter queue', {
    requestItemId: requestId,
    attempts,
    reason,
    detail: answer.detail,
    maxAttempts: maxHandoffAttempts,
  });
  return 'stopped';
}
