/**
 * The functions that answer no route, once: what invokes each, its entry, size, timeout and the
 * table grants it needs. The CDK `DeliveryTracking` construct builds the SES events function and
 * the unsent check (infra/constructs/delivery-tracking.ts), the `LeadDigest` construct the weekly
 * digest, only with `authorEmail` (infra/constructs/lead-digest.ts), the `LeadHandoff` construct the
 * mail provider's hand-off, only with `mailProvider` (infra/constructs/lead-handoff.ts); the monitoring gives each its
 * alarms. (The pause function, invoked by the alarm topic, has its own construct: sending-pause.ts.)
 */

import { worstCaseSdkCallMs } from '../../config/sdk-timeouts';
import { deliveryServices } from '../../observability/product-metrics';
import type { ProductTable } from './routes';

/** The DynamoDB actions these functions call. */
export type EventFunctionTableAction = 'dynamodb:UpdateItem' | 'dynamodb:Scan' | 'dynamodb:GetItem';

export interface EventFunction {
  /** Its name: the CDK id prefix of its function, role and log group. */
  readonly id: 'SesEvents' | 'UnsentCheck' | 'LeadDigest' | 'LeadHandoff';
  /** What invokes it. */
  /** `leadHandoff`: the requests table's stream (new consenting requests) and the hand-off queue. */
  readonly trigger: 'sesEvents' | 'schedule' | 'weeklySchedule' | 'leadHandoff';
  readonly entry: string;
  readonly description: string;
  readonly memoryMb: number;
  readonly memoryReason: string;
  readonly timeoutSeconds: number;
  readonly timeoutReason: string;
  /** Its logs' `service`, and what alarm descriptions call it. */
  readonly logService: string;
  readonly tableAccess: readonly {
    readonly table: ProductTable;
    readonly actions: readonly EventFunctionTableAction[];
    readonly why: string;
  }[];
}

const worstCaseSeconds = worstCaseSdkCallMs / 1000;

export const eventFunctions = {
  sesEvents: {
    id: 'SesEvents',
    trigger: 'sesEvents',
    entry: 'lambdas/ses-events/handler.ts',
    description: "Records SES's delivery, bounce and complaint events on their requests; suppresses bounced mailboxes.",
    memoryMb: 128,
    memoryReason: 'Two small UpdateItem calls per event: the smallest size is plenty.',
    timeoutSeconds: 15,
    timeoutReason: `At most one suppression and one record update per recipient, each at most ${worstCaseSeconds} s when DynamoDB stalls.`,
    logService: deliveryServices.sesEvents,
    tableAccess: [
      {
        table: 'requests',
        actions: ['dynamodb:UpdateItem'],
        why: "One conditional UpdateItem by the request's id (the request_id message tag): no index, no read.",
      },
      {
        table: 'limitCounters',
        actions: ['dynamodb:UpdateItem'],
        why: 'Suppresses a mailbox: one UpdateItem of its suppressed#<hash> item (if_not_exists keeps the first).',
      },
    ],
  },
  unsentCheck: {
    id: 'UnsentCheck',
    trigger: 'schedule',
    entry: 'lambdas/unsent-check/handler.ts',
    description:
      'Every 15 minutes: counts the requests still unsent 15 minutes after they were saved (UnsentRequests).',
    memoryMb: 256,
    memoryReason: "Rather than 128: Lambda's CPU share grows with memory, and a Scan decodes every page it reads.",
    timeoutSeconds: 60,
    timeoutReason:
      'A paginated Scan of the requests table: about 10 ms per 1 MB page at this size; a minute is room for a table a hundred times larger.',
    logService: deliveryServices.unsentCheck,
    tableAccess: [
      {
        table: 'requests',
        actions: ['dynamodb:Scan'],
        why: 'Reads every request (its status, times and failure code only) to count those still unsent.',
      },
    ],
  },
  leadDigest: {
    id: 'LeadDigest',
    trigger: 'weeklySchedule',
    entry: 'lambdas/lead-digest/handler.ts',
    description: "Mails the author the week's new cheat-sheet requests as CSV, every Monday.",
    memoryMb: 256,
    memoryReason: 'One Scan of a small table and one e-mail with a CSV attachment: room for thousands of requests.',
    timeoutSeconds: 60,
    timeoutReason:
      'A paginated Scan of the requests table and one SES call: a minute is room for a table a hundred times larger.',
    logService: deliveryServices.leadDigest,
    tableAccess: [
      {
        table: 'requests',
        actions: ['dynamodb:Scan'],
        why: "Reads the week's requests (name, address, times, delivery status) for the author's CSV.",
      },
    ],
  },
  leadHandoff: {
    id: 'LeadHandoff',
    trigger: 'leadHandoff',
    entry: 'lambdas/lead-handoff/handler.ts',
    description: "Hands each consenting lead to the author's mail provider, once (the request item is the outbox).",
    memoryMb: 256,
    memoryReason:
      'One GetItem, one or two HTTPS calls and one UpdateItem per lead: more CPU than 128 MB gives shortens the TLS handshakes.',
    timeoutSeconds: 30,
    timeoutReason: `Per message: the secret and the item (each at most ${worstCaseSeconds} s when AWS stalls), at most two provider calls of 10 s each (Kit's two), one UpdateItem; a batch's further messages reuse the warm connection. The queue's visibility timeout is six times this, as AWS advises for Lambda.`,
    logService: deliveryServices.leadHandoff,
    tableAccess: [
      {
        table: 'requests',
        actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        why: "A consistent GetItem reads the lead (gone when erased, or accepted before); a conditional UpdateItem records the attempt's outcome on it (the outbox).",
      },
    ],
  },
} as const satisfies Record<string, EventFunction>;

export type EventFunctionName = keyof typeof eventFunctions;

export const eventFunctionList: readonly (EventFunction & { readonly name: EventFunctionName })[] = (
  Object.keys(eventFunctions) as EventFunctionName[]
).map((name) => ({ name, ...eventFunctions[name] }));

/** How often the unsent check runs, in minutes: the unsent alarm's period too. */
export const unsentCheckIntervalMinutes = 15;
