/**
 * Every route of the HTTP API and the function behind it, once: the CDK `Api` construct builds one
 * `ProductFunction` per entry (bundled from `entry`, sized by `memoryMb` and `timeoutSeconds`,
 * granted exactly `tableAccess` and `grants`, throttled by `throttle`), the local twin mounts the
 * same list, the OpenAPI document describes each from its `reply` and `openApi`, the metrics each
 * function reports and the monitoring's graphs and alarms come from its `metrics`, and the
 * monitoring reads which table operations the functions call from it. The failures a route
 * answers are the failure catalogue's (`failures.ts`, each kind's `causes`).
 *
 * To add a route: add an entry below, write its handler folder at `entry`, and its tests
 * (docs/architecture.md, 'How to add a route').
 */

import type * as z from 'zod/mini';

import { replyMarginMs, sdkTimeouts, timeNeededBeforeSesMs, worstCaseSdkCallMs } from '../../config/sdk-timeouts';
import {
  failureMetrics,
  functionServices,
  outcomeMetrics,
  submitFormLogService,
  type FailureMetricName,
  type FunctionService,
  type OutcomeMetric,
  type RefusalKind,
} from '../../observability/product-metrics';
import { cheatSheetSentMessage } from '../messages';
import {
  cheatSheetSentBody,
  errorFailureBody,
  requestSavedBody,
  unsuccessfulFailureBody,
  type CheatSheetSentBody,
  type FailureBodyShape,
  type RequestSavedBody,
} from '../reply-bodies';
import { apiRoutes, cheatSheetFormRoute } from '../routes';

/** The three tables, by what they hold (core/data/tables.ts). */
export type ProductTable = 'requests' | 'limitCounters' | 'idempotency';

/** The DynamoDB actions the functions call. */
export type TableAction =
  | 'dynamodb:PutItem'
  | 'dynamodb:GetItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:Query'
  | 'dynamodb:BatchGetItem';

/** One grant on one table (or on its e-mail index), with why the handler needs it. */
export interface TableAccess {
  readonly table: ProductTable;
  /** On the table's e-mail index rather than the table. */
  readonly emailIndex?: boolean;
  readonly actions: readonly TableAction[];
  readonly why: string;
}

/**
 * The grants that are not on a table. `cheatSheetRead`: GetObject on the PDF's one key (and, with
 * SSE-KMS, Decrypt through S3 alone). `emailSend`: SendEmail on the sender identity and the
 * configuration set. `originSecretRead`: GetSecretValue on the origin secret.
 */
export type OtherGrant = 'cheatSheetRead' | 'emailSend' | 'originSecretRead';

/** Which function environment it gets (core/config/function-environment.ts). */
export type RouteEnvironment = 'saveRequest' | 'sendCheatSheet' | 'both';

/**
 * The route's own throttle (API Gateway's route settings, for POST and its ANY twin): requests a
 * second, and the burst above it. A flood on one route is answered 429 there and leaves the others
 * their share of the stage's 10 a second: together they come to the stage's default (10 a second,
 * burst 20), and a flood on one takes at most 4 of the 10.
 *
 * Sized from the expected human rate and the cost cap. Humans: a reader saves once and sends
 * once; a launch mailing to 10,000 readers of whom a tenth answer in its first ten minutes is
 * 1,000 submissions in 600 s, under 2 a second at the peak, and the daily send budget (500)
 * bounds the sends of a whole day. Cost: a flood held at a route's full rate for a month is
 * 4 x 2,592,000 = 10.4 million requests, about 10 USD of API Gateway (1 USD a million) and a few
 * USD of Lambda for refusals that touch nothing else; the whole stage at 10 a second, about
 * 26 USD of API Gateway a month, is the most a flood past the web ACL can cost. The web ACL lets
 * one client at most a quarter of the smallest rate (infra/constructs/web-firewall.ts).
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
  | { readonly kind: 'form' };

/** How the OpenAPI document names and describes its POST operation. */
export interface RouteOpenApi {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
}

/**
 * The metrics service a route's function reports under (its `logService`): what it counts when it
 * succeeds, the failure metric its failures count under with a `kind`, and the refusals it
 * counts besides its failure kinds' (the honeypot). Which failure kinds and refusals it can report
 * is the catalogue's: the kinds that list this route among their causes.
 */
export interface RouteMetrics {
  readonly outcome: OutcomeMetric;
  readonly failureMetric: FailureMetricName;
  readonly otherRefusals: readonly RefusalKind[];
}

export interface ProductRoute {
  /** Its name: also the CDK id prefix of its function, role, log group and integration. */
  readonly id: string;
  /** POST is the route; every other method reaches the same function, which answers 405. */
  readonly method: 'POST';
  readonly path: string;
  /** The handler's file, from the repository root; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  readonly memoryMb: number;
  readonly memoryReason: string;
  readonly timeoutSeconds: number;
  /** Its worst case, from the SDK's (core/config/sdk-timeouts.ts). */
  readonly timeoutReason: string;
  /** Its logs' `service`, and what alarm descriptions and graphs call it. */
  readonly logService: string;
  /** The `service` dimensions of the product metrics it emits. */
  readonly metricsServices: readonly FunctionService[];
  /** When its `logService` is a metrics service of its own: what it counts. */
  readonly metrics?: RouteMetrics;
  readonly throttle: RouteThrottle;
  readonly environment: RouteEnvironment;
  readonly tableAccess: readonly TableAccess[];
  readonly grants: readonly OtherGrant[];
  readonly reply: RouteReply;
  readonly openApi: RouteOpenApi;
}

const worstCaseSeconds = worstCaseSdkCallMs / 1000;
const timeNeededBeforeSesSeconds = timeNeededBeforeSesMs / 1000;

/** Both JSON routes' keys, and the form's (lambdas/requests/idempotency.ts): Powertools' four calls. */
const idempotencyAccess: TableAccess = {
  table: 'idempotency',
  actions: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  why: "The Idempotency-Key records (Powertools' Idempotency utility): a conditional PutItem claims a key, a consistent GetItem reads a repeated key's record, UpdateItem keeps the reply, DeleteItem forgets a key whose failure proved nothing was done.",
};

const saveOwnTableAccess: readonly TableAccess[] = [
  {
    table: 'requests',
    actions: ['dynamodb:PutItem', 'dynamodb:GetItem'],
    why: "Stores the request as one new item; with an Idempotency-Key, under the key's id, and a consistent GetItem reads the key's request when it exists already (no second item).",
  },
  {
    table: 'limitCounters',
    actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem'],
    why: "The client's and the network's hourly save limits (rolling-counter.ts): UpdateItem to seal and to claim (and to give back after a failed write), a consistent BatchGetItem of the window's earlier buckets, a consistent GetItem to tell a full bucket from a sealed one (or a claim of its own whose reply was lost).",
  },
];

const saveTableAccess: readonly TableAccess[] = [...saveOwnTableAccess, idempotencyAccess];

/** Behind CloudFront, the save function proves a request came through it, and keys its counters, with the origin secret. */
const saveGrants: readonly OtherGrant[] = ['originSecretRead'];

const sendOwnTableAccess: readonly TableAccess[] = [
  {
    table: 'requests',
    emailIndex: true,
    actions: ['dynamodb:Query'],
    why: "Without an Idempotency-Key, finds the address's newest unsent request; after a send, its older claimable ones (to mark them superseded).",
  },
  {
    table: 'requests',
    actions: ['dynamodb:UpdateItem', 'dynamodb:GetItem'],
    why: "Always conditional: claims the request, records its outcome only from sending, marks the mailbox's older claimable requests superseded, and records a send that had no request (createSending creates the item with UpdateItem and attribute_not_exists(id)), so no PutItem. A consistent GetItem reads the request a submission's Idempotency-Key names, by its id: never through the eventually consistent index.",
  },
  {
    table: 'limitCounters',
    actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem'],
    why: "The address's daily cap (address-daily-cap.ts): a consistent GetItem, then a conditional UpdateItem that also sets the TTL. The client's and the budget's rolling counters (rolling-counter.ts): UpdateItem to seal and to claim, a consistent BatchGetItem of the window's earlier buckets.",
  },
];

const sendTableAccess: readonly TableAccess[] = [...sendOwnTableAccess, idempotencyAccess];

const sendGrants: readonly OtherGrant[] = ['cheatSheetRead', 'emailSend', 'originSecretRead'];

export const productRoutes = {
  saveRequest: {
    id: 'SaveRequest',
    method: 'POST',
    path: apiRoutes.saveRequest,
    entry: 'lambdas/save-request/handler.ts',
    description: `POST ${apiRoutes.saveRequest}: stores a cheat-sheet request.`,
    memoryMb: 256,
    memoryReason:
      "Rather than 128: Lambda's CPU share grows with memory, and loading the ~400 KB bundle is most of a cold request.",
    timeoutSeconds: 10,
    timeoutReason: `Reads the origin secret (cold containers only), claims the two save limits (UpdateItem, BatchGetItem, UpdateItem each), then one PutItem; with an Idempotency-Key, a PutItem before on its record and an UpdateItem after. Each call takes a few milliseconds; one failing call (${worstCaseSeconds} s) plus the others at their usual speed leaves about 3 s to spare.`,
    logService: functionServices.saveRequest,
    metricsServices: [functionServices.saveRequest],
    metrics: {
      outcome: outcomeMetrics.requestSaved,
      failureMetric: failureMetrics.saveFailed,
      otherRefusals: ['HoneypotCaught'],
    },
    throttle: {
      rateLimit: 4,
      burstLimit: 8,
      reason:
        "One save per reader, just before the send: twice a launch mailing's peak of under 2 a second, and a month at this rate costs about 10 USD of API Gateway, a cap the product can carry.",
    },
    environment: 'saveRequest',
    tableAccess: saveTableAccess,
    grants: saveGrants,
    reply: {
      kind: 'json',
      success: {
        status: 201,
        description:
          'The request was recorded, unsent. `id` names the stored item. A request whose honeypot field `website` is filled in gets the same reply, with a fresh id, and nothing is stored.',
        body: requestSavedBody,
        example: { id: '3f6c2a9e-8b1d-4c7a-9e0f-5d2b7a1c4e68' } satisfies RequestSavedBody,
      },
      failureBody: errorFailureBody,
      schemaNames: { success: 'RequestSaved', failure: 'SaveFailure' },
    },
    openApi: {
      operationId: 'saveCheatSheetRequest',
      summary: 'Record a cheat-sheet request',
      description:
        'Stores the request as unsent. The page calls this first, then the send route with the same body; it goes on to the send even when this fails.',
    },
  },
  sendCheatSheet: {
    id: 'SendCheatSheet',
    method: 'POST',
    path: apiRoutes.sendCheatSheet,
    entry: 'lambdas/send-cheat-sheet/handler.ts',
    description: `POST ${apiRoutes.sendCheatSheet}: e-mails the cheat sheet.`,
    memoryMb: 512,
    memoryReason: "Keeps the bundle's cold start and the PDF's base64 encoding quick.",
    timeoutSeconds: 20,
    timeoutReason: `Reads the origin secret and the PDF (cold containers only), claims a slot of each limit (UpdateItem, BatchGetItem, UpdateItem for each rolling counter; GetItem, UpdateItem for the address), calls SES, then records the outcome on the request (UpdateItem); with an Idempotency-Key, a GetItem of its request, a PutItem before on its record and an UpdateItem after. No SES attempt starts with less than ${timeNeededBeforeSesSeconds} s left (its own ${sdkTimeouts.requestTimeoutMs / 1000} s, the record after it at worst ${worstCaseSeconds} s, ${replyMarginMs / 1000} s to reply), so a send SES accepted is always recorded before the deadline. Each call takes a few milliseconds; a service that stalls fails its first call, so one failing call before SES (${worstCaseSeconds} s) plus the others at their usual speed (under 1 s) plus those ${timeNeededBeforeSesSeconds} s is the worst case: 20 s.`,
    logService: functionServices.sendCheatSheet,
    metricsServices: [functionServices.sendCheatSheet],
    metrics: {
      outcome: outcomeMetrics.cheatSheetSent,
      failureMetric: failureMetrics.sendFailed,
      otherRefusals: ['HoneypotCaught'],
    },
    throttle: {
      rateLimit: 4,
      burstLimit: 8,
      reason:
        "One send per reader after the save, so as much room as the save: the daily budget (500) and each client's 10 an hour bound the mail, this bounds the requests and their cost (about 10 USD a month at the full rate).",
    },
    environment: 'sendCheatSheet',
    tableAccess: sendTableAccess,
    grants: sendGrants,
    reply: {
      kind: 'json',
      success: {
        status: 200,
        description:
          'The cheat sheet was e-mailed, with the PDF attached. A request whose honeypot field `website` is filled in gets the same reply, and nothing is sent or stored.',
        body: cheatSheetSentBody,
        example: { success: true, message: cheatSheetSentMessage } satisfies CheatSheetSentBody,
      },
      failureBody: unsuccessfulFailureBody,
      schemaNames: { success: 'CheatSheetSent', failure: 'SendFailure' },
    },
    openApi: {
      operationId: 'sendCheatSheet',
      summary: 'E-mail the cheat sheet',
      description:
        "Checks the client's hourly limit, the address's daily cap and the daily send budget, e-mails the cheat-sheet PDF and records the send (on the request saved before, or on a new item). Behind CloudFront, a request that did not come through it is refused.",
    },
  },
  submitForm: {
    id: 'SubmitForm',
    method: 'POST',
    path: cheatSheetFormRoute,
    entry: 'lambdas/submit-form/handler.ts',
    description: `POST ${cheatSheetFormRoute}: the form without its script; saves, sends, redirects to a result page.`,
    memoryMb: 512,
    memoryReason: 'As the send function, for the same PDF work.',
    timeoutSeconds: 25,
    timeoutReason: `Saves then sends in one invocation. When DynamoDB stalls, the save fails (${worstCaseSeconds} s) and so does the send's first call to it (${worstCaseSeconds} s), the rest at their usual speed: about 15 s. When the save is slow but the send's calls are not, the send still needs ${timeNeededBeforeSesSeconds} s left before SES (the send function's reason): ${worstCaseSeconds} s + 1 s + ${timeNeededBeforeSesSeconds} s = 20 s, so 25 s leaves 5 s to spare, inside API Gateway's 30 s.`,
    logService: submitFormLogService,
    // Its saves and sends count where the JSON routes' do: the funnel and the alarms cover both ways in.
    metricsServices: [functionServices.saveRequest, functionServices.sendCheatSheet],
    environment: 'both',
    // Exactly the save function's grants plus the send function's: it takes the same two steps.
    tableAccess: [...saveOwnTableAccess, ...sendOwnTableAccess, idempotencyAccess],
    grants: sendGrants,
    throttle: {
      rateLimit: 2,
      burstLimit: 4,
      reason:
        "The form without its script: only readers with JavaScript off, or before the page's script loads, a small share of the peak; it saves and sends in one request, so half the others' rate, and half their cost at most.",
    },
    reply: { kind: 'form' },
    openApi: {
      operationId: 'submitCheatSheetForm',
      summary: "The form itself, when the page's script does not send it",
      description: [
        "The form's `action`: a browser posts it here when JavaScript is off or the page's script has not loaded yet.",
        "It runs the two JSON routes' own handlers in turn, so their validation, limits, honeypot and origin check: unless",
        'the box is ticked it stores and sends nothing; it saves the request (a failure is logged and the send goes',
        'ahead), then sends the cheat sheet. Every outcome is a `303` to a pre-rendered page of the site that says what happened, so no field',
        'ever appears in a URL.',
      ].join(' '),
    },
  },
} as const satisfies Record<string, ProductRoute>;

export type ProductRouteName = keyof typeof productRoutes;

/** A JSON route's reply: its success reply and its failure body (what its handler answers with). */
export function jsonReplyOf(name: ProductRouteName): Extract<RouteReply, { readonly kind: 'json' }> {
  const { reply } = productRoutes[name] as ProductRoute;
  if (reply.kind !== 'json') throw new Error(`${name} does not answer JSON`);
  return reply;
}

/** Every route, in the catalogue's order: what the `Api` construct and the local twin iterate. */
export const productRouteList: readonly (ProductRoute & { readonly name: ProductRouteName })[] = (
  Object.keys(productRoutes) as ProductRouteName[]
).map((name) => ({ name, ...productRoutes[name] }));

/**
 * API Gateway's integration timeout: no function may take longer.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html
 */
export const integrationTimeoutSeconds = 30;

/** A timeout must outlast a failing SDK call and leave time to reply; false names the route that does not. */
export function timeoutLeavesRoomToReply(route: Pick<ProductRoute, 'timeoutSeconds'>): boolean {
  return route.timeoutSeconds * 1000 >= worstCaseSdkCallMs + replyMarginMs;
}

/** Every DynamoDB action a route may be granted, in the order the alarms sum them. */
const tableActionOrder: readonly TableAction[] = [
  'dynamodb:PutItem',
  'dynamodb:GetItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:Query',
  'dynamodb:BatchGetItem',
];

/** The DynamoDB actions all routes call on one table, index included: what its alarms sum. */
export function tableActionsOf(table: ProductTable): readonly TableAction[] {
  const granted = productRouteList.flatMap((route) =>
    route.tableAccess.filter((access) => access.table === table).flatMap((access) => access.actions),
  );
  return tableActionOrder.filter((action) => granted.includes(action));
}
