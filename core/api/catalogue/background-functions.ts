/**
 * The functions no route invokes: scheduled, on an event pattern or a queue (what `trigger`
 * says). Part of the catalogue (`productFunctions` in functions.ts, which spreads them after the
 * routes), written apart only to keep each file readable.
 */

import { worstCaseSdkCallMs } from '../../config/sdk-timeouts';
import { deliveryServices } from '../../observability/product-metrics';
import { unsentIndex } from '../../data/unsent-index';
import { canaryCadence } from '../../config/canary-cadence';
import type { FunctionEntry } from './function-entry';

const worstCaseSeconds = worstCaseSdkCallMs / 1000;

export const backgroundFunctions = {
  sesEvents: {
    id: 'SesEvents',
    trigger: {
      kind: 'event',
      from: 'defaultBus',
      // EventBridge's detail-types for SES's delivery, bounce and complaint events.
      pattern: { source: ['aws.ses'], detailType: ['Email Delivered', 'Email Bounced', 'Email Complaint Received'] },
      ofConfigurationSet: true,
      description:
        "The product's configuration set's delivery, bounce and complaint events: to the SES events function.",
      retryAttempts: 2,
      maxEventAgeHours: 6,
      undelivered: {
        delivery:
          "EventBridge retries a failed delivery to the function for 6 hours; an SES event still undelivered leaves its request 'sent' (true: SES accepted it) and, for a bounce, SES's own account suppression list still stops the address. A dead-letter queue would hold it where nobody looks.",
        invocation:
          "EventBridge invokes it asynchronously and Lambda retries a failed invocation twice; one that still fails goes, with its event, to the event functions' on-failure queue, whose DeadLetters-FailedEvents ticket opens. Its work is idempotent, so redoing it is safe; Lambda's older dead-letter setting would be a second queue for the same failures.",
      },
    },
    entry: 'lambdas/ses-events/handler.ts',
    description: "Records SES's delivery, bounce and complaint events on their requests; suppresses bounced mailboxes.",
    memoryMb: 128,
    memoryReason: 'Two small UpdateItem calls per event: the smallest size is plenty.',
    timeoutSeconds: 15,
    timeoutReason: `The origin secret's read (once per container, for a bounce or a complaint only), then at most one suppression and one record update per recipient, each at most ${worstCaseSeconds} s when AWS stalls.`,
    logService: deliveryServices.sesEvents,
    environment: 'deliveryEvents',
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
    // The suppression's id is the mailbox's HMAC under a key derived from the origin secret (core/data/address-hash.ts).
    grants: ['originSecretRead'],
    errorsMean:
      'ses-events failed (a storage fault, a crash or a timeout); Lambda retries it twice, and what it left undone shows in the request records.',
  },
  unsentCheck: {
    id: 'UnsentCheck',
    trigger: {
      kind: 'schedule',
      // Every 5 minutes: each run counts the requests saved in one 5-minute slice (lambdas/unsent-check), so the slices tile time.
      schedule: { everyMinutes: 5 },
      description:
        'Counts the requests that newly went unsent, 15 minutes after their save, since the previous run (UnsentRequests).',
      // No retry of the delivery: a lost tick's slice goes uncounted (rare; it cannot page alone).
      retryAttempts: 0,
      undelivered: {
        delivery:
          "A scheduled tick carries only its time, which names the 5-minute slice of saves it counts: a lost one leaves that slice's unsent requests out of the delivery objective (they stay listed by npm run leads -- unsent), and the next tick counts its own.",
        invocation:
          "EventBridge invokes it asynchronously and Lambda retries a failed run twice, with the same event, so the same slice; one that still fails (the requests table unreadable, its key disabled, say) goes to the event functions' on-failure queue, whose DeadLetters-FailedEvents ticket opens, and its redrive counts that slice. Lambda's older dead-letter setting would be a second queue for the same failures.",
      },
    },
    entry: 'lambdas/unsent-check/handler.ts',
    description:
      'Every 5 minutes: counts the requests saved 15 to 20 minutes before its tick that are still unsent (UnsentRequests, a Sum the delivery objective reads).',
    timeoutSeconds: 60,
    timeoutReason:
      'A paginated Query of the unsent index, its key condition reading one 5-minute slice of saves: a few items on a normal day; a minute is room for a slice of hundreds of thousands.',
    logService: deliveryServices.unsentCheck,
    environment: 'deliveryTracking',
    tableAccess: [
      {
        table: 'requests',
        actions: ['dynamodb:Query'],
        index: unsentIndex.name,
        why: "Queries the sparse unsent index (status, time and failure code only) for one slice's requests still unsent: no Scan, no other read.",
      },
    ],
    errorsMean:
      "unsent-check failed (a storage fault, a crash or a timeout); Lambda's retries count the same slice, and what it left undone shows in the request records (npm run leads -- unsent).",
  },
  leadDigest: {
    id: 'LeadDigest',
    trigger: {
      kind: 'schedule',
      // Mondays at 07:00 UTC: the week's leads before the author's working week starts, in Europe and the Americas' night.
      schedule: { cron: { weekDay: 'MON', hour: '7', minute: '0' } },
      description: 'Invokes the weekly digest of new leads (Mondays 07:00 UTC).',
      retryAttempts: 2,
      maxEventAgeHours: 6,
      undelivered: {
        delivery:
          "The schedule's event carries nothing but the time: one EventBridge could not deliver (after two retries within six hours) is a missed digest, which the next Monday's makes up for, and the leads stay in the table for npm run leads -- export. A dead-letter queue would hold that time stamp where nobody looks.",
        invocation:
          "EventBridge invokes it asynchronously and Lambda retries a failed invocation twice; a digest that still fails goes to the event functions' on-failure queue, whose DeadLetters-FailedEvents ticket opens, and the leads are still in the table for npm run leads -- export. Lambda's older dead-letter setting would be a second queue for the same failures.",
      },
    },
    entry: 'lambdas/lead-digest/handler.ts',
    description:
      "Mails the author the week's new cheat-sheet requests as CSV and the page's funnel against the week before, every Monday.",
    timeoutSeconds: 60,
    timeoutReason:
      'Two paginated Scans of the requests table (the week, and the funnel of two weeks), fourteen GetItem calls at once and one SES call: a minute is room for a table a hundred times larger.',
    logService: deliveryServices.leadDigest,
    environment: 'leadDigest',
    tableAccess: [
      {
        table: 'requests',
        actions: ['dynamodb:Scan'],
        why: "Reads the week's requests (name, address, times, delivery status) for the author's CSV, and the two weeks' statuses (projected: no name, no address) for the funnel.",
      },
      {
        table: 'limitCounters',
        actions: ['dynamodb:GetItem'],
        why: "The funnel's visits and unique visitors: one eventually consistent GetItem of each of the fourteen days' funnel#<day> items (lambdas/funnel/funnel-report.ts); no Query, no Scan of the counters.",
        // Those items alone (funnelDayId of core/data/funnel.ts, written out: that module's imports lead back
        // here): not the suppressions or the limits' counters the table holds besides.
        leadingKeys: ['funnel#*'],
      },
    ],
    grants: ['emailSend'],
    onlyWith: 'authorEmail',
  },
  pauseSending: {
    id: 'PauseSending',
    trigger: {
      kind: 'event',
      from: 'alarmTopic',
      alarms: 'sendingPause',
      // Only those alarms' ALARM notifications invoke it: the topic carries every alarm of the
      // product, on ALARM and on OK. The function checks the same again (pause-sending.ts).
      pattern: { NewStateValue: ['ALARM'] },
      undelivered: {
        delivery:
          'A notification SNS cannot deliver to the pause function leaves nothing unseen: the same alarm e-mails the operator, whose runbook step is to check the sending state (npm run sending -- status). A dead-letter queue would hold it where nobody looks.',
        invocation:
          "SNS invokes it asynchronously and Lambda retries a failed invocation twice; a pause that still fails is in its log group, and the same alarm has already paged the operator by e-mail, whose runbook step is to check the configuration set's sending state. A dead-letter queue would hold the notification where nobody looks.",
      },
    },
    entry: 'lambdas/pause-sending/handler.ts',
    description: 'Pauses sending for the configuration set when its bounce or complaint alarm fires.',
    memoryMb: 128,
    memoryReason: 'One SES call: the smallest size is plenty.',
    logService: 'pause-sending',
    environment: 'sendingPause',
    grants: ['sendingPause'],
    errorsMean:
      'The pause function failed (after its two retries, or on each): sending may NOT be paused although the bounce or complaint alarm fired.',
  },
  canary: {
    id: 'Canary',
    trigger: {
      kind: 'schedule',
      // Every 5 minutes: two failed runs in a row page within 15 minutes (core/config/canary-cadence.ts).
      schedule: { everyMinutes: canaryCadence.checkEveryMinutes },
      description: `Invokes the canary every ${canaryCadence.checkEveryMinutes} minutes: a reader the stack sends itself.`,
      // No retry: the next run, 5 minutes on, is the retry, and the objectives count runs.
      retryAttempts: 0,
      undelivered: {
        delivery:
          'A scheduled tick carries nothing: a lost one is replaced by the next, 5 minutes later, which checks the same site.',
        invocation:
          "A failed run is the canary's finding, counted by its Errors metric, which the objectives' alarms read; Lambda does not retry it (the next run does), and it goes to the event functions' on-failure queue, whose DeadLetters ticket opens beside the page.",
      },
    },
    entry: 'lambdas/canary/handler.ts',
    description:
      "A reader the stack sends itself: loads the page, saves, sends to the SES mailbox simulator and confirms the delivery, through the site's public address.",
    memoryMb: 256,
    memoryReason:
      'The proof of work (up to 10,000 SHA-256 hashes) and the TLS handshakes want the CPU share 256 MB gives; it waits on the network the rest of its run.',
    timeoutSeconds: 60,
    timeoutReason: `Five HTTP requests of at most 10 s each (the page, the save, the challenge, the send; then one GetItem of at most ${worstCaseSeconds} s), one after the other, and the proof of work.`,
    logService: 'canary',
    environment: 'canary',
    tableAccess: [
      {
        table: 'requests',
        actions: ['dynamodb:GetItem'],
        why: "One consistent GetItem of the earlier sending run's request (its key's id): whether its e-mail reached delivered.",
      },
    ],
    // The mark's key is derived from the deployment's secret (core/data/canary-mark.ts).
    grants: ['originSecretRead'],
    failedRunRetries: 0,
    errorsMean:
      "A canary run failed: the page, the save, the send or the earlier run's delivery (its log says which step and what it saw). Two within the hour page through SloFastBurn-Availability.",
    offWith: 'canary',
  },
  queuedSend: {
    id: 'QueuedSend',
    trigger: {
      kind: 'queue',
      queue: 'send',
      undelivered: {
        delivery:
          "A message the sender keeps failing stays in the send queue and comes back every visibility timeout (six minutes) for 14 days; its request stays 'sending', and its age past 15 minutes opens the SendBacklog ticket.",
        invocation:
          "Invoked only through the send queue's event source mapping, never asynchronously: a batch that fails comes back to the queue, whose age the SendBacklog ticket watches.",
      },
    },
    entry: 'lambdas/queued-send/handler.ts',
    description:
      "Sends the cheat sheets the send route accepted while SES's rate had no slot for them, once each, at that rate.",
    memoryMb: 512,
    memoryReason: "As the send function's: the PDF's base64 encoding and the bundle's cold start stay quick.",
    timeoutSeconds: 60,
    timeoutReason: `A batch of up to 10 messages, one after another, each waiting for its slot of SES's rate (at the sandbox's 1 a second, 10 s for a batch) then one SES call and two or three writes, each at most ${worstCaseSeconds} s when AWS stalls; a message that would start with too little time left comes back to the queue. The queue's visibility timeout is six times this, as AWS advises for Lambda.`,
    logService: deliveryServices.queuedSend,
    environment: 'queuedSend',
    tableAccess: [
      {
        table: 'requests',
        actions: ['dynamodb:UpdateItem'],
        why: "Always conditional, by the request's id: begins its one attempt (and reads the item back with it), records the outcome only from sending under the route's claim, marks the mailbox's older claimable requests superseded.",
      },
      {
        table: 'requests',
        emailIndex: true,
        actions: ['dynamodb:Query'],
        why: "After a send, the mailbox's older claimable requests (to mark them superseded).",
      },
      {
        table: 'limitCounters',
        actions: ['dynamodb:UpdateItem'],
        why: "SES's send pace (send-pace.ts): one conditional UpdateItem of its one item per send.",
      },
    ],
    grants: ['cheatSheetRead', 'emailSend', 'sendQuotaRead'],
    errorsMean:
      "queued-send failed (a crash or a timeout); its batch comes back to the send queue, whose age past 15 minutes opens the SendBacklog ticket. Nothing is sent twice: each request's one attempt is recorded before SES is called.",
  },
  leadHandoff: {
    id: 'LeadHandoff',
    trigger: {
      kind: 'queue',
      queue: 'leadHandoff',
      undelivered: {
        delivery:
          "The stream's mapping sends what it cannot process to the dead-letter queue, and the queue has its redrive policy: its alarm (DeadLetters-LeadHandoff) is the ticket.",
        invocation:
          'Invoked only through event source mappings (the stream and the queue), never asynchronously: the stream mapping sends what it cannot process to the dead-letter queue, and the queue has its redrive policy.',
      },
    },
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
    onlyWith: 'mailProvider',
  },
} as const satisfies Record<string, FunctionEntry>;
