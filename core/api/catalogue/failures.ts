/**
 * Every way a request can fail, once: its stable `code` (sent in every failure body), its HTTP
 * status, its public message, what it counts towards in the product metrics, its alarm and the
 * runbook section an operator reads first. The functions' typed errors carry one of these kinds
 * (`lambdas/shared/errors.ts`); the reply (`lambdas/shared/http-reply.ts`), the metric
 * (`lambdas/shared/metrics.ts`), the OpenAPI document and the alarms are lookups here.
 *
 * To add a failure: add its kind below, throw it from the domain code, and list it under the
 * causes of its route's status in `core/api/replies.ts` (the OpenAPI document's examples).
 */

import type { FailureKind as FailureMetricKind, RefusalKind } from '../../observability/product-metrics';
import {
  addressDailyCapReachedMessage,
  cheatSheetUnavailableMessage,
  clientHourlySendCapReachedMessage,
  dailySendBudgetSpentMessage,
  emailRejectedMessage,
  emailServiceUnavailableMessage,
  misconfiguredMessage,
  networkHourlySendCapReachedMessage,
  clientHourlySaveCapReachedMessage,
  networkHourlySaveCapReachedMessage,
  undeliverableAddressMessage,
  originSecretUnavailableMessage,
  senderNotVerifiedMessage,
  storageUnavailableMessage,
  unexpectedFailureMessage,
  untrustedOriginMessage,
} from '../messages';

/** What a typed error says of itself that its public message may use. */
export interface FailureDetail {
  /** The error's own message: shown only for the request refusals, which are written for the visitor. */
  readonly message: string;
  /** The limit that was reached, for the limits' messages. */
  readonly limit?: number;
}

/** What a failure counts towards: a refusal metric, a failure metric's `kind`, or nothing (API Gateway's own 4xx). */
export type FailureMetric = { readonly refusal: RefusalKind } | { readonly failure: FailureMetricKind } | null;

/** How many in five minutes page the operator, and why that many. */
export interface FailureAlarm {
  readonly threshold: number;
  readonly reason: string;
}

export interface FailureKindSpec {
  /** Stable, snake_case: clients may branch on it; never renamed once published. */
  readonly code: string;
  readonly status: 400 | 403 | 405 | 413 | 415 | 429 | 500 | 502 | 503;
  /** The sentence the visitor reads: a fixed one for every server-side failure, never an SDK's text. */
  readonly publicMessage: (detail: FailureDetail) => string;
  readonly metric: FailureMetric;
  /** Null where no alarm pages on it, with the reason in `quietReason`. */
  readonly alarm: FailureAlarm | null;
  readonly quietReason?: string;
  /** A heading of docs/operate.md (its slug, with `#`): what the operator does first. */
  readonly runbook: string;
}

const ownMessage = ({ message }: FailureDetail) => message;
const fixed = (text: string) => () => text;

/** The visitor's own request, refused: counted by API Gateway's 4xx, never an alarm of ours. */
const visitorsOwn = "The visitor's own request: API Gateway counts it as a 4xx.";

/** One where every request fails until someone acts (a configuration, a missing PDF, a bug). */
const pagesAtOnce: FailureAlarm = {
  threshold: 1,
  reason: 'Every request fails until someone acts, so the first one pages.',
};
/** Three where one failure can be a passing blip that the SDK's retry did not absorb. */
const pagesOnRepeat: FailureAlarm = {
  threshold: 3,
  reason: "One can be a passing blip the SDK's retry did not absorb; three in five minutes is an outage.",
};

export const failureKinds = {
  invalidRequest: {
    code: 'invalid_request',
    status: 400,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason: visitorsOwn,
    runbook: '#api-4xx',
  },
  // Never 404: CloudFront would replace the JSON with the not-found page.
  untrustedOrigin: {
    code: 'untrusted_origin',
    status: 403,
    publicMessage: fixed(untrustedOriginMessage),
    metric: null,
    alarm: null,
    quietReason: "A call past CloudFront, to the API's own address: API Gateway counts it as a 4xx.",
    runbook: '#api-4xx',
  },
  crossSiteRequest: {
    code: 'cross_site_request',
    status: 403,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason: visitorsOwn,
    runbook: '#api-4xx',
  },
  methodNotAllowed: {
    code: 'method_not_allowed',
    status: 405,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason: visitorsOwn,
    runbook: '#api-4xx',
  },
  payloadTooLarge: {
    code: 'payload_too_large',
    status: 413,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason: visitorsOwn,
    runbook: '#api-4xx',
  },
  unsupportedMediaType: {
    code: 'unsupported_media_type',
    status: 415,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason: visitorsOwn,
    runbook: '#api-4xx',
  },
  // Before any limit is claimed: most often a typo, so the visitor is asked to check the address.
  undeliverableAddress: {
    code: 'undeliverable_address',
    status: 400,
    publicMessage: fixed(undeliverableAddressMessage),
    metric: null,
    alarm: null,
    quietReason:
      "A mistyped or made-up address, refused before it could bounce: the visitor's own request, counted as a 4xx.",
    runbook: '#recipient-domain-check',
  },
  addressDailyCapReached: {
    code: 'address_daily_cap_reached',
    status: 429,
    publicMessage: ({ limit }) => addressDailyCapReachedMessage(limit ?? 0),
    metric: { refusal: 'AddressCapReached' },
    alarm: null,
    quietReason: 'The cap working as meant: graphed on the dashboard, not paged.',
    runbook: '#address-daily-cap',
  },
  clientHourlySendCapReached: {
    code: 'client_hourly_cap_reached',
    status: 429,
    publicMessage: ({ limit }) => clientHourlySendCapReachedMessage(limit ?? 0),
    metric: { refusal: 'ClientCapReached' },
    alarm: null,
    quietReason: 'The cap working as meant: graphed on the dashboard, not paged.',
    runbook: '#client-hourly-cap',
  },
  networkHourlySendCapReached: {
    code: 'network_hourly_cap_reached',
    status: 429,
    publicMessage: ({ limit }) => networkHourlySendCapReachedMessage(limit ?? 0),
    metric: { refusal: 'NetworkCapReached' },
    alarm: null,
    quietReason: 'The cap working as meant (one network rotating addresses): graphed on the dashboard, not paged.',
    runbook: '#network-hourly-cap',
  },
  clientHourlySaveCapReached: {
    code: 'client_hourly_save_cap_reached',
    status: 429,
    publicMessage: ({ limit }) => clientHourlySaveCapReachedMessage(limit ?? 0),
    metric: { refusal: 'ClientCapReached' },
    alarm: null,
    quietReason: 'The cap working as meant (a script filling the lead export): graphed on the dashboard, not paged.',
    runbook: '#save-limits',
  },
  networkHourlySaveCapReached: {
    code: 'network_hourly_save_cap_reached',
    status: 429,
    publicMessage: ({ limit }) => networkHourlySaveCapReachedMessage(limit ?? 0),
    metric: { refusal: 'NetworkCapReached' },
    alarm: null,
    quietReason: 'The cap working as meant (a script filling the lead export): graphed on the dashboard, not paged.',
    runbook: '#save-limits',
  },
  // The product's own budget, not the visitor's doing: the service cannot send for now.
  dailySendBudgetSpent: {
    code: 'daily_send_budget_spent',
    status: 503,
    publicMessage: fixed(dailySendBudgetSpentMessage),
    metric: { refusal: 'SendBudgetRefused' },
    alarm: null,
    quietReason: 'Paged by the budget alarms on CheatSheetSent (a warning share, then spent), not per refusal.',
    runbook: '#daily-send-budget',
  },
  // A misconfigured sender is our fault, reported by the upstream service: 502.
  senderNotVerified: {
    code: 'sender_not_verified',
    status: 502,
    publicMessage: fixed(senderNotVerifiedMessage),
    metric: { failure: 'SenderNotVerified' },
    // Also the SES sandbox: SES then checks the recipient's identity too, and every reader fails.
    alarm: {
      threshold: 1,
      reason:
        "Every send fails until someone acts: the sender's identity is not verified, or the account is in the SES sandbox: request production access.",
    },
    runbook: '#sender-not-verified',
  },
  // The configuration set (paused by the bounce or complaint alarm) or the whole account (by SES).
  sendingPaused: {
    code: 'sending_paused',
    status: 503,
    publicMessage: fixed(dailySendBudgetSpentMessage),
    metric: { refusal: 'SendingPaused' },
    alarm: null,
    quietReason:
      "The product's own pause follows the bounce or complaint alarm, which already paged; a refusal per reader would page again for the same cause. Graphed on the dashboard.",
    runbook: '#sending-paused',
  },
  emailRejected: {
    code: 'email_rejected',
    status: 502,
    publicMessage: fixed(emailRejectedMessage),
    metric: { failure: 'SesRejected' },
    alarm: pagesOnRepeat,
    runbook: '#ses-rejected',
  },
  // Temporary: throttled or unreachable services, a PDF not (yet) in its bucket.
  emailServiceUnavailable: {
    code: 'email_service_unavailable',
    status: 503,
    publicMessage: fixed(emailServiceUnavailableMessage),
    metric: { failure: 'SesUnavailable' },
    alarm: pagesOnRepeat,
    runbook: '#ses-unavailable',
  },
  storageUnavailable: {
    code: 'storage_unavailable',
    status: 503,
    publicMessage: fixed(storageUnavailableMessage),
    metric: { failure: 'StorageUnavailable' },
    alarm: pagesOnRepeat,
    runbook: '#storage-unavailable',
  },
  cheatSheetUnavailable: {
    code: 'cheat_sheet_unavailable',
    status: 503,
    publicMessage: fixed(cheatSheetUnavailableMessage),
    metric: { failure: 'PdfUnavailable' },
    alarm: pagesAtOnce,
    runbook: '#pdf-unavailable',
  },
  // Read once per container, so a failure is nearly always a wrong ARN or a missing grant.
  originSecretUnavailable: {
    code: 'origin_secret_unavailable',
    status: 503,
    publicMessage: fixed(originSecretUnavailableMessage),
    metric: { failure: 'Misconfigured' },
    alarm: pagesAtOnce,
    runbook: '#misconfigured',
  },
  misconfigured: {
    code: 'misconfigured',
    status: 500,
    publicMessage: fixed(misconfiguredMessage),
    metric: { failure: 'Misconfigured' },
    alarm: pagesAtOnce,
    runbook: '#misconfigured',
  },
  unexpected: {
    code: 'unexpected',
    status: 500,
    publicMessage: fixed(unexpectedFailureMessage),
    metric: { failure: 'Unexpected' },
    alarm: pagesAtOnce,
    runbook: '#unexpected',
  },
} as const satisfies Record<string, FailureKindSpec>;

/** A failure kind by its name in `failureKinds`. */
export type FailureKindName = keyof typeof failureKinds;
/** A failure body's `code`. */
export type FailureCode = (typeof failureKinds)[FailureKindName]['code'];

/** Every failure kind with its name, in the catalogue's order: what alarms, docs and tests iterate. */
export const failureKindList: readonly (FailureKindSpec & { readonly name: FailureKindName })[] = (
  Object.keys(failureKinds) as FailureKindName[]
).map((name) => ({ name, ...failureKinds[name] }));

/**
 * The alarm of each failure metric `kind`: several failure kinds may count under one (the origin
 * secret and a missing variable are both `Misconfigured`), and they agree on it.
 */
export function failureAlarmOf(metricKind: FailureMetricKind): FailureAlarm & { readonly runbook: string } {
  const spec = failureKindList.find(
    (kind) => kind.metric !== null && 'failure' in kind.metric && kind.metric.failure === metricKind,
  );
  if (!spec?.alarm) throw new Error(`No failure kind counts as ${metricKind}`);
  return { ...spec.alarm, runbook: spec.runbook };
}
