/**
 * One SES event, as EventBridge hands it over (`detail` is SES's event record): what it means for
 * the request's record and for the mailbox. Knows nothing of Lambda or EventBridge.
 *
 * - `Delivery`: the request is `delivered`.
 * - `Bounce` of type `Permanent` (the mailbox does not exist, or refuses mail for good): `bounced`,
 *   and each bounced recipient's mailbox is suppressed. A `Transient` or `Undetermined` bounce
 *   (a full mailbox, a greylisting server) changes nothing: SES has retried already, and the
 *   reader may well get the next one.
 * - `Complaint`: `complained`, and each complaining recipient's mailbox is suppressed.
 *
 * The request is found by the `request_id` tag the send function puts on every message; an event
 * without it (a message sent through the configuration set by something else) only suppresses.
 */

import { requestIdMessageTag } from '../../core/data/delivery-status';
import type { Suppressions } from '../mail/suppressions';
import type { DeliveryRecords, EventStatus } from './delivery-records';

/** The fields of SES's event record this function reads (SES's "event publishing" record format). */
export interface SesEventRecord {
  readonly eventType?: string;
  readonly mail?: {
    readonly messageId?: string;
    readonly timestamp?: string;
    readonly destination?: readonly string[];
    readonly tags?: Readonly<Record<string, readonly string[] | undefined>>;
  };
  readonly delivery?: { readonly timestamp?: string };
  readonly bounce?: {
    readonly bounceType?: string;
    readonly timestamp?: string;
    readonly bouncedRecipients?: readonly { readonly emailAddress?: string }[];
  };
  readonly complaint?: {
    readonly timestamp?: string;
    readonly complainedRecipients?: readonly { readonly emailAddress?: string }[];
  };
}

/** What an event means: a new state for the request and the mailboxes to suppress, or nothing and why. */
export type SesEventMeaning =
  | {
      readonly status: EventStatus;
      readonly at: string | undefined;
      readonly suppress: readonly string[];
      readonly reason?: 'bounce' | 'complaint';
    }
  | { readonly ignored: string };

const addressesOf = (recipients: readonly { readonly emailAddress?: string }[] | undefined) =>
  (recipients ?? []).flatMap(({ emailAddress }) => (emailAddress ? [emailAddress] : []));

export function meaningOf(record: SesEventRecord): SesEventMeaning {
  switch (record.eventType) {
    case 'Delivery':
      return { status: 'delivered', at: record.delivery?.timestamp, suppress: [] };
    case 'Bounce':
      if (record.bounce?.bounceType !== 'Permanent') {
        return {
          ignored: `a ${record.bounce?.bounceType ?? 'untyped'} bounce: SES retried, the mailbox may take the next`,
        };
      }
      return {
        status: 'bounced',
        at: record.bounce.timestamp,
        suppress: addressesOf(record.bounce.bouncedRecipients),
        reason: 'bounce',
      };
    case 'Complaint': {
      const complained = addressesOf(record.complaint?.complainedRecipients);
      return {
        status: 'complained',
        at: record.complaint?.timestamp,
        // SES may leave complainedRecipients out; the message's own recipients are then the ones.
        suppress: complained.length > 0 ? complained : [...(record.mail?.destination ?? [])],
        reason: 'complaint',
      };
    }
    default:
      return { ignored: `an event of type ${record.eventType ?? 'none'}: not one this function records` };
  }
}

export interface SesEventDependencies {
  readonly records: DeliveryRecords;
  readonly suppressions: Pick<Suppressions, 'suppress'>;
  readonly now: () => Date;
}

export interface SesEventResult {
  /** The request's id from the message tag, when the message carried one. */
  readonly requestId?: string;
  readonly status?: EventStatus;
  /** Whether the request's item changed (false: a repeated or stale event, or no item). */
  readonly recorded: boolean;
  readonly suppressed: number;
  readonly ignored?: string;
}

/** The time an event reports, or now when it has none or a malformed one. */
function timeOf(value: string | undefined, now: Date): Date {
  const parsed = Date.parse(value ?? '');
  return Number.isFinite(parsed) ? new Date(parsed) : now;
}

export async function recordSesEvent(record: SesEventRecord, deps: SesEventDependencies): Promise<SesEventResult> {
  const meaning = meaningOf(record);
  if ('ignored' in meaning) return { recorded: false, suppressed: 0, ignored: meaning.ignored };
  const now = deps.now();
  const at = timeOf(meaning.at, now);
  // Suppressed first: a mailbox that bounced must never be mailed again, whatever the record says.
  for (const address of meaning.suppress) await deps.suppressions.suppress(address, meaning.reason!, at);

  const requestId = record.mail?.tags?.[requestIdMessageTag]?.[0];
  const messageId = record.mail?.messageId;
  if (!requestId || !messageId) {
    return { status: meaning.status, recorded: false, suppressed: meaning.suppress.length };
  }
  const recorded = await deps.records.record(
    requestId,
    messageId,
    meaning.status,
    at,
    timeOf(record.mail?.timestamp, at),
  );
  return { requestId, status: meaning.status, recorded, suppressed: meaning.suppress.length };
}
