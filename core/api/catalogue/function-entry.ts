/**
 * What an entry of the catalogue of functions holds (`functions.ts` lists them): what invokes it
 * (its trigger: an HTTP route, a schedule or an event pattern), its handler, its size and timeout,
 * its environment, its grants and its metrics service, with the defaults most entries share.
 * Plain data: the CDK app builds each function from it (infra/constructs/catalogue-function.ts),
 * the local twin mounts its routes, the OpenAPI document and the monitoring read it.
 */

import type * as z from 'zod/mini';

import { replyMarginMs, worstCaseSdkCallMs } from '../../config/sdk-timeouts';
import type {
  FailureMetricName,
  FunctionService,
  OutcomeMetric,
  RefusalKind,
} from '../../observability/product-metrics';
import type { FailureBodyShape } from '../reply-bodies';

/** The four tables, by what they hold (core/data/tables.ts). */
export type ProductTable = 'requests' | 'limitCounters' | 'idempotency' | 'funnelVisitors';

/** The DynamoDB actions the functions call. */
export type TableAction =
  | 'dynamodb:PutItem'
  | 'dynamodb:GetItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:Query'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:Scan';

/** Every DynamoDB action a function may be granted, in the order the alarms sum them. */
export const tableActionOrder: readonly TableAction[] = [
  'dynamodb:PutItem',
  'dynamodb:GetItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:Query',
  'dynamodb:BatchGetItem',
  'dynamodb:Scan',
];

/** One grant on one table (or on its e-mail index), with why the handler needs it. */
export interface TableAccess {
  readonly table: ProductTable;
  /** On the table's e-mail index rather than the table. */
  readonly emailIndex?: boolean;
  /** On this index of the table rather than the table (the sparse unsent index). */
  readonly index?: string;
  readonly actions: readonly TableAction[];
  readonly why: string;
  /**
   * Only the items whose partition key matches one of these patterns (`*`: any characters), as IAM's
   * `dynamodb:LeadingKeys` condition key (ForAllValues:StringLike) says; single-item actions only
   * (GetItem, PutItem, UpdateItem, DeleteItem), the ones whose key the rehearsal reads.
   *
   * @default - every item of the table
   */
  readonly leadingKeys?: readonly string[];
}

/** The actions `leadingKeys` may narrow: each names one item by its key. */
export const singleItemTableActions: readonly TableAction[] = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
];

/**
 * The grants that are not on a table. `cheatSheetRead`: GetObject on the PDF's one key (and, with
 * SSE-KMS, Decrypt through S3 alone). `emailSend`: SendEmail on the sender identity and the
 * configuration set. `originSecretRead`: GetSecretValue on the origin secret. `sendingPause`:
 * PutConfigurationSetSendingOptions on the product's configuration set alone. `sendQuotaRead`:
 * SESv2 GetAccount (the account's maximum send rate; no resource-level permission, so `*`).
 * `sendQueueWrite`: SendMessage on the send queue alone.
 */
export type OtherGrant =
  | 'cheatSheetRead'
  | 'emailSend'
  | 'originSecretRead'
  | 'sendingPause'
  | 'sendQuotaRead'
  | 'sendQueueWrite';

/**
 * Which set of variables it gets: `core/config/function-environment.ts` for the routes' (the form
 * function gets the save function's and the send function's, `both`), the function's own module
 * for the others (`deliveryEvents`: the tables of `deliveryTracking` and the deployment's secret,
 * which keys the suppression entries); `none` for a function that reads no variable.
 */
export type FunctionEnvironment =
  | 'saveRequest'
  | 'sendCheatSheet'
  | 'both'
  | 'challenge'
  | 'visitCount'
  | 'deliveryTracking'
  | 'deliveryEvents'
  | 'leadDigest'
  | 'sendingPause'
  | 'canary'
  | 'queuedSend'
  | 'none';

/** The methods a route may take; every other method reaches the same function, which answers 405. */
export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof httpMethods)[number];

/**
 * The route's own throttle (API Gateway's route settings, for its method and its ANY twin):
 * requests a second, and the burst above it. A flood on one route is answered 429 there and
 * leaves the others their share of the stage's rate: by the route throttle rule
 * (`routeThrottleRule` in functions.ts) the routes' rates add up to at most the stage's, so a
 * flood on one takes at most its own share.
 *
 * Sized from the expected human rate and the cost cap. Humans: a reader saves, fetches a
 * challenge and sends, once each; a launch's peak is 6 readers a second
 * (core/config/launch-capacity.ts), and the daily send budget bounds the sends of a whole day.
 * Cost: a flood held at a route's full rate (8 a second) for a month is 8 x 2,592,000 = 20.7
 * million requests, about 21 USD of API Gateway (1 USD a million) and a few USD of Lambda for
 * refusals that touch nothing else; the whole stage at 26 a second, about 67 USD of API Gateway a
 * month, is the most a flood past the web ACL can cost. The web ACL lets one client at most a
 * quarter of the smallest rate (infra/constructs/web-firewall.ts).
 */
export interface RouteThrottle {
  readonly rateLimit: number;
  readonly burstLimit: number;
  readonly reason: string;
}

/** A JSON route's success reply: its status, the OpenAPI description, its body's shape and an example. */
export interface SuccessReply {
  readonly status: number;
  readonly description: string;
  readonly body: z.core.$ZodType;
  readonly example: unknown;
}

/** How a route answers: JSON (a success body, and a failure body around each failure's code) or the form's pages. */
export type RouteReply =
  | {
      readonly kind: 'json';
      readonly success: SuccessReply;
      readonly failureBody: FailureBodyShape;
      /** The names of its two bodies under the OpenAPI document's `components.schemas`. */
      readonly schemaNames: { readonly success: string; readonly failure: string };
    }
  | { readonly kind: 'form' }
  /** A 1×1 GIF whatever happened (the page's visit beacon: a counting failure never shows). */
  | { readonly kind: 'beacon' };

/** How the OpenAPI document names and describes its operation. */
export interface RouteOpenApi {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
}

/**
 * The metrics service a function reports under (its `logService`): what it counts when it
 * succeeds, the failure metric its failures count under with a `kind`, and the refusals it
 * counts besides its failure kinds' (the honeypot). Which failure kinds and refusals it can report
 * is the catalogue's: the kinds that list this route among their causes.
 */
export interface FunctionMetrics {
  readonly outcome: OutcomeMetric;
  readonly failureMetric: FailureMetricName;
  readonly otherRefusals: readonly RefusalKind[];
}

/** An HTTP API route: API Gateway invokes the function synchronously and hands its reply to the caller. */
export interface HttpTrigger {
  readonly kind: 'http';
  /** The route's one method; its ANY twin sends every other method to the function, which answers 405. */
  readonly method: HttpMethod;
  readonly path: string;
  readonly throttle: RouteThrottle;
  readonly reply: RouteReply;
  readonly openApi: RouteOpenApi;
}

/**
 * Why an asynchronously invoked function needs no dead-letter queue: what a lost delivery and a
 * failed invocation leave behind (the reasons the synth's checks are acknowledged with).
 */
export interface UndeliveredReasons {
  /** A delivery the trigger gave up on (EventBridge's retries, SNS's). */
  readonly delivery: string;
  /** An invocation that failed after Lambda's own retries. */
  readonly invocation: string;
}

/** When EventBridge Scheduler-style rules run it: every `minutes`, or at a cron time (UTC). */
export type ScheduleExpression =
  | { readonly everyMinutes: number }
  | { readonly cron: { readonly weekDay?: string; readonly hour: string; readonly minute: string } };

/** A schedule: an EventBridge rule on the default bus invokes it, asynchronously. */
export interface ScheduleTrigger {
  readonly kind: 'schedule';
  readonly schedule: ScheduleExpression;
  /** The rule's description. */
  readonly description: string;
  /** EventBridge's retries of a failed delivery (0 to 185). */
  readonly retryAttempts: number;
  /** @default EventBridge's own, 24 hours */
  readonly maxEventAgeHours?: number;
  readonly undelivered: UndeliveredReasons;
}

/**
 * An event pattern. `defaultBus`: an EventBridge rule on the default bus matching `pattern`
 * (`source`, `detailType`), narrowed by the stack to this account and, with
 * `ofConfigurationSet`, to the product's SES configuration set. `alarmTopic`: a subscription to
 * the alarm topic whose filter policy matches `pattern` on the notification's body, narrowed to
 * the alarms the stack names for `alarms`.
 */
export type EventTrigger =
  | {
      readonly kind: 'event';
      readonly from: 'defaultBus';
      readonly pattern: { readonly source: readonly string[]; readonly detailType: readonly string[] };
      readonly ofConfigurationSet: boolean;
      readonly description: string;
      readonly retryAttempts: number;
      /** @default EventBridge's own, 24 hours */
      readonly maxEventAgeHours?: number;
      readonly undelivered: UndeliveredReasons;
    }
  | {
      readonly kind: 'event';
      readonly from: 'alarmTopic';
      /** Which alarms' notifications: the stack names them (`sendingPause`: the configuration set's reputation alarms). */
      readonly alarms: 'sendingPause';
      readonly pattern: { readonly NewStateValue: readonly string[] };
      readonly undelivered: UndeliveredReasons;
    };

/**
 * A queue's messages, through a Lambda event source mapping: `leadHandoff`, the requests table's
 * stream (new consenting requests) and the hand-off queue, which the `LeadHandoff` construct owns
 * and wires (infra/constructs/lead-handoff.ts); `send`, the sends the send route accepted while
 * SES's rate had no slot for them, which the `SendQueue` construct owns and wires
 * (infra/constructs/send-queue.ts).
 */
export interface QueueTrigger {
  readonly kind: 'queue';
  readonly queue: 'leadHandoff' | 'send';
  readonly undelivered: UndeliveredReasons;
}

/** What invokes a function. A new kind is a member here and a case in infra/constructs/function-triggers.ts. */
export type FunctionTrigger = HttpTrigger | ScheduleTrigger | EventTrigger | QueueTrigger;

/** A size other than the default, with why. */
export interface MemorySize {
  readonly memoryMb: number;
  readonly memoryReason: string;
}

/** A timeout other than the default, with its worst case. */
export interface TimeoutSize {
  readonly timeoutSeconds: number;
  readonly timeoutReason: string;
}

/** One function of the product, as written in the catalogue: what differs from the defaults. */
export type FunctionEntry = {
  /** Its name: also the CDK id prefix of its function, role, log group and integration or rule. */
  readonly id: string;
  readonly trigger: FunctionTrigger;
  /** The handler's file, from the repository root; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  /** Its logs' `service`, and what alarm descriptions and graphs call it. */
  readonly logService: string;
  /** The `service` dimensions of the product metrics it emits. @default none */
  readonly metricsServices?: readonly FunctionService[];
  /** When its `logService` is a metrics service of its own: what it counts. */
  readonly metrics?: FunctionMetrics;
  /** @default 'none' */
  readonly environment?: FunctionEnvironment;
  /** @default none */
  readonly tableAccess?: readonly TableAccess[];
  /** @default none */
  readonly grants?: readonly OtherGrant[];
  /**
   * What a Lambda Error of it means, for the runbook (no function has an errors alarm of its own). @default a crash, a timeout or memory
   * running out (for a handler that answers every known failure itself)
   */
  readonly errorsMean?: string;
  /** Built only when the stack's context gives this value (the digest needs an author to mail, the hand-off a provider). */
  readonly onlyWith?: 'authorEmail' | 'mailProvider';
  /** Built unless this context value is `false` (the canary: `-c canary=false`). @default built */
  readonly offWith?: 'canary';
  /**
   * Lambda's retries of a failed asynchronous run, before it goes to the on-failure queue. @default 2
   * (0 where a retry would blur what the run measures: the canary's next run is the retry)
   */
  readonly failedRunRetries?: 0 | 1 | 2;
} & (MemorySize | { readonly memoryMb?: undefined }) &
  (TimeoutSize | { readonly timeoutSeconds?: undefined });

/** Most functions' size: Lambda's CPU share grows with memory, and loading the bundle is most of a cold start. */
export const defaultMemory: MemorySize = {
  memoryMb: 256,
  memoryReason:
    "Rather than 128: Lambda's CPU share grows with memory, and loading a bundle of a few hundred KB is most of a cold request.",
};

const worstCaseSeconds = worstCaseSdkCallMs / 1000;

/** A function that calls the AWS SDK: one failing call, then time to reply or to log, and a second to spare. */
export const defaultSdkTimeout: TimeoutSize = {
  timeoutSeconds: 10,
  timeoutReason: `One failing SDK call (${worstCaseSeconds} s) plus ${replyMarginMs / 1000} s to reply or log, and a second to spare.`,
};

/** A function that makes no SDK call: Lambda's own default is plenty. */
export const defaultPlainTimeout: TimeoutSize = {
  timeoutSeconds: 3,
  timeoutReason: "It makes no SDK call: Lambda's own default of 3 s is plenty.",
};

/** An entry with every default applied, and its name in the catalogue. */
export type CatalogueFunction<Name extends string = string> = Required<
  Omit<FunctionEntry, 'metrics' | 'onlyWith' | 'offWith' | 'errorsMean' | 'memoryMb' | 'timeoutSeconds'>
> &
  MemorySize &
  TimeoutSize & {
    readonly name: Name;
    readonly metrics?: FunctionMetrics;
    readonly onlyWith?: 'authorEmail' | 'mailProvider';
    readonly offWith?: 'canary';
    readonly errorsMean?: string;
  };

/** Does it call the AWS SDK? A grant or a table is what it would call. */
function callsTheSdk(entry: FunctionEntry): boolean {
  return (entry.tableAccess ?? []).length > 0 || (entry.grants ?? []).length > 0;
}

/** The entry with the defaults of what it leaves out. */
export function withDefaults<Name extends string>(name: Name, entry: FunctionEntry): CatalogueFunction<Name> {
  const memory: MemorySize =
    entry.memoryMb === undefined ? defaultMemory : { memoryMb: entry.memoryMb, memoryReason: entry.memoryReason };
  const timeout: TimeoutSize =
    entry.timeoutSeconds === undefined
      ? callsTheSdk(entry)
        ? defaultSdkTimeout
        : defaultPlainTimeout
      : { timeoutSeconds: entry.timeoutSeconds, timeoutReason: entry.timeoutReason };
  return {
    ...entry,
    name,
    ...memory,
    ...timeout,
    metricsServices: entry.metricsServices ?? [],
    environment: entry.environment ?? 'none',
    tableAccess: entry.tableAccess ?? [],
    grants: entry.grants ?? [],
    failedRunRetries: entry.failedRunRetries ?? 2,
  };
}
