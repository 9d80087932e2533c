/**
 * The functions' own CloudWatch metrics, named once: the functions emit them (embedded metric
 * format, `lambdas/runtime/metrics.ts`), the stack alarms on them and graphs them
 * (`infra/constructs/monitoring/`). Plain data.
 *
 * What each function reports (its outcome, its failure metric, the failure kinds and refusals it
 * can count) is its route's entry in the catalogue, with the failure kinds that list the route
 * among their causes (`core/api/catalogue/service-metrics.ts`).
 *
 * Dimensions: `service` on every metric (which function: one of `functionServices`) and, on the
 * failure metrics only, `kind`. Powertools adds `function_name` to its own `ColdStart`. Nothing
 * else, ever: no name, no e-mail address, no IP address in a dimension or in metadata.
 */

/** One namespace for everything the product reports about itself. */
export const metricsNamespace = 'First100DaysSite';

export const metricDimensions = {
  /** The function: `functionServices`, also the Powertools logger's service name. */
  service: 'service',
  /** On SendFailed and SaveFailed: one of `failureMetricKinds`. */
  kind: 'kind',
} as const;

/** The `service` dimension of each function (and its logs' `service` field). */
export const functionServices = {
  saveRequest: 'save-request',
  sendCheatSheet: 'send-cheat-sheet',
} as const;
export type FunctionService = (typeof functionServices)[keyof typeof functionServices];

/**
 * The form function's logs' `service` (`lambdas/submit-form/`). It has no metrics service of its
 * own: it runs the save and send handlers, which count under theirs, so the funnel and every
 * product alarm cover a request whichever way it came in.
 */
export const submitFormLogService = 'submit-form';

/** What went right: the funnel, from a saved request to a sent cheat sheet. */
export const outcomeMetrics = {
  /** save-request stored a request (201). */
  requestSaved: 'RequestSaved',
  /** send-cheat-sheet had SES accept the e-mail (200). */
  cheatSheetSent: 'CheatSheetSent',
} as const;

export type OutcomeMetric = (typeof outcomeMetrics)[keyof typeof outcomeMetrics];

/** What failed, counted with a `kind`: the save route's failures and the send route's. */
export const failureMetrics = {
  saveFailed: 'SaveFailed',
  sendFailed: 'SendFailed',
} as const;

export type FailureMetricName = (typeof failureMetrics)[keyof typeof failureMetrics];

/**
 * Why a request failed (5xx), one per typed error; `Misconfigured` and `Unexpected` are the
 * functions' own fault (a missing variable, a bug).
 */
export const failureMetricKinds = [
  'SesRejected',
  'SesUnavailable',
  'SenderNotVerified',
  'StorageUnavailable',
  'PdfUnavailable',
  'Misconfigured',
  'Unexpected',
] as const;
export type FailureMetricKind = (typeof failureMetricKinds)[number];

/**
 * The defences that turn a request away on purpose; each is its own metric (count 1 per refused
 * request), with `service` only.
 */
export const refusalMetrics = [
  'AddressCapReached',
  'ClientCapReached',
  'NetworkCapReached',
  'SendBudgetRefused',
  // SES sending paused (the configuration set, or the whole account): the send is refused, 503.
  'SendingPaused',
  'HoneypotCaught',
  // SES refused the visitor's own address (illegal, or suppressed): the visitor's 400, never a page.
  'RecipientRejected',
  // A call to the API's own address, past CloudFront: it spent the readers' throttle (docs/abuse.md).
  'UntrustedOrigin',
] as const;
export type RefusalKind = (typeof refusalMetrics)[number];

/**
 * What a function noticed, count 1, `service` only: `RecipientDomainUnknown`, a recipient-domain
 * lookup that failed or timed out, so the send went on (fail open); `SendOutcomeUnknown`, a
 * SendEmail call that left and got no answer (the request is recorded `unknown`, never sent again
 * by itself); `SendNotRecorded`, an e-mail SES accepted whose request could not be updated.
 */
export const noticeMetrics = ['RecipientDomainUnknown', 'SendOutcomeUnknown', 'SendNotRecorded'] as const;
export type NoticeMetric = (typeof noticeMetrics)[number];

/**
 * The delivery-tracking functions, which answer no route: the SES events function (its logs'
 * `service`) and the unsent check, which reports `UnsentRequests` under its own `service`.
 */
export const deliveryServices = {
  sesEvents: 'ses-events',
  unsentCheck: 'unsent-check',
  leadDigest: 'lead-digest',
  leadHandoff: 'lead-handoff',
  queuedSend: 'queued-send',
} as const;

/**
 * The unsent check's gauge, every 5 minutes when not 0: requests saved more than 15 minutes before and still
 * not sent, for a reason nobody was told of (core/data/delivery-status.ts, isUnsentUnnoticed).
 */
export const unsentRequestsMetric = 'UnsentRequests';

/**
 * The visit function's `service` (its logs' too) and what it counts, once per visit to `/`
 * (`Visit`), per first visit of a visitor's day (`UniqueVisitor`) and per visit it left out as a
 * known bot's (`BotVisit`): the dashboard's funnel row (core/data/funnel.ts).
 */
export const visitService = 'count-visit';
export const visitMetrics = { visit: 'Visit', uniqueVisitor: 'UniqueVisitor', botVisit: 'BotVisit' } as const;
export type VisitMetric = (typeof visitMetrics)[keyof typeof visitMetrics];

/** Powertools Metrics' own, once per new container (dimensions `service` and `function_name`). */
export const coldStartMetric = 'ColdStart';
