/**
 * Every function of the product, once: what invokes it (an HTTP route, a schedule or an event
 * pattern: `trigger`), its handler (`entry`), its size and timeout with their reasons, its
 * environment, its grants (`tableAccess`, `grants`) and its metrics service. What an entry leaves
 * out is the default (function-entry.ts: 256 MB; 10 s for a function that calls the AWS SDK, 3 s
 * for one that does not; no grant, no variable, no metrics).
 *
 * The CDK app builds every function from its entry with one construct
 * (infra/constructs/catalogue-function.ts) and wires its trigger (the `Api` construct the routes,
 * infra/constructs/function-triggers.ts the rest); the local twin mounts the routes; the OpenAPI
 * document describes each route from its `reply` and `openApi`; the monitoring reads each route's
 * method, path and service, and which table operations the functions call. The failures a route
 * answers are the failure catalogue's (`failures.ts`, each kind's `causes`).
 *
 * To add a function: add an entry below, write its handler at `entry`, and its tests
 * (docs/architecture.md, 'How to add a route' and 'How to add a scheduled or event function').
 */

import { replyMarginMs, sdkTimeouts, timeNeededBeforeSesMs, worstCaseSdkCallMs } from '../../config/sdk-timeouts';
import {
  failureMetrics,
  functionServices,
  outcomeMetrics,
  submitFormLogService,
  visitService,
} from '../../observability/product-metrics';
import { cheatSheetSentMessage } from '../messages';
import {
  challengeIssuedBody,
  cheatSheetSentBody,
  errorFailureBody,
  requestSavedBody,
  unsuccessfulFailureBody,
  type ChallengeIssuedBody,
  type CheatSheetSentBody,
  type RequestSavedBody,
} from '../reply-bodies';
import { apiRoutes, cheatSheetFormRoute, visitBeaconRoute } from '../routes';
import { proofOfWorkChallengePath } from '../proof-of-work';
import { backgroundFunctions } from './background-functions';
import {
  tableActionOrder,
  withDefaults,
  type CatalogueFunction,
  type FunctionEntry,
  type OtherGrant,
  type ProductTable,
  type TableAccess,
  type TableAction,
} from './function-entry';

export type * from './function-entry';

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
    why: "The client's and the network's hourly save limits (rolling-counter.ts): UpdateItem to seal and to claim (and to give back after a failed write), a consistent BatchGetItem of the window's earlier buckets, a consistent GetItem to tell a full bucket from a sealed one (or a claim of its own whose reply was lost). The mailbox's suppression entry (suppressions.ts): one BatchGetItem of its keyed and its legacy id.",
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
    why: "The address's daily cap (address-daily-cap.ts): a consistent GetItem, then a conditional UpdateItem that also sets the TTL. The client's and the budget's rolling counters (rolling-counter.ts): UpdateItem to seal and to claim, a consistent BatchGetItem of the window's earlier buckets. The mailbox's suppression entry (suppressions.ts): one BatchGetItem of its keyed and its legacy id.",
  },
];

const sendTableAccess: readonly TableAccess[] = [...sendOwnTableAccess, idempotencyAccess];

/** SES's rate is read from the account (GetAccount); a send it has no slot for goes to the send queue. */
const sendGrants: readonly OtherGrant[] = [
  'cheatSheetRead',
  'emailSend',
  'originSecretRead',
  'sendQuotaRead',
  'sendQueueWrite',
];

/** The catalogue: every function, by its name. */
export const productFunctions = {
  saveRequest: {
    id: 'SaveRequest',
    trigger: {
      kind: 'http',
      method: 'POST',
      path: apiRoutes.saveRequest,
      throttle: {
        rateLimit: 8,
        burstLimit: 16,
        reason:
          "One save per reader, just before the send: a launch's peak of 6 readers a second (core/config/launch-capacity.ts) with a third to spare, and a month at this rate costs about 21 USD of API Gateway, a cap the product can carry.",
      },
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
    entry: 'lambdas/save-request/handler.ts',
    description: `POST ${apiRoutes.saveRequest}: stores a cheat-sheet request.`,
    timeoutSeconds: 10,
    timeoutReason: `Reads the origin secret (cold containers only), claims the two save limits (UpdateItem, BatchGetItem, UpdateItem each), then one PutItem; with an Idempotency-Key, a PutItem before on its record and an UpdateItem after. Each call takes a few milliseconds; one failing call (${worstCaseSeconds} s) plus the others at their usual speed leaves about 3 s to spare.`,
    logService: functionServices.saveRequest,
    metricsServices: [functionServices.saveRequest],
    metrics: {
      outcome: outcomeMetrics.requestSaved,
      failureMetric: failureMetrics.saveFailed,
      otherRefusals: ['HoneypotCaught'],
    },
    environment: 'saveRequest',
    tableAccess: saveTableAccess,
    grants: saveGrants,
  },
  sendCheatSheet: {
    id: 'SendCheatSheet',
    trigger: {
      kind: 'http',
      method: 'POST',
      path: apiRoutes.sendCheatSheet,
      throttle: {
        rateLimit: 8,
        burstLimit: 16,
        reason:
          "One send per reader after the save, so as much room as the save: the daily budget and each client's 10 an hour bound the mail, this bounds the requests and their cost (about 21 USD a month at the full rate).",
      },
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
    environment: 'sendCheatSheet',
    tableAccess: sendTableAccess,
    grants: sendGrants,
  },
  submitForm: {
    id: 'SubmitForm',
    trigger: {
      kind: 'http',
      method: 'POST',
      path: cheatSheetFormRoute,
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
  },
  cheatSheetChallenge: {
    id: 'CheatSheetChallenge',
    trigger: {
      kind: 'http',
      method: 'GET',
      path: proofOfWorkChallengePath,
      throttle: {
        rateLimit: 8,
        burstLimit: 16,
        reason:
          'One challenge per send, so as much room as the send: while it is full the page cannot send, so a smaller share would make it the cheapest route to deny readers the form (docs/abuse.md); a month at this rate costs about 21 USD of API Gateway.',
      },
      reply: {
        kind: 'json',
        success: {
          status: 200,
          description:
            "With the proof of work on (`CHEAT_SHEET_CHALLENGE=on`, the stack's default), a fresh challenge (ALTCHA's, signed with the deployment's secret, valid 10 minutes, one send): the page finds the counter whose SHA-256 key starts with `keyPrefix` and sends the solution in the `X-Cheat-Sheet-Proof` header. Off, `{required: false}`: the send asks for nothing. Never cached.",
          body: challengeIssuedBody,
          example: {
            required: true,
            challenge: {
              parameters: {
                algorithm: 'SHA-256',
                nonce: '2f1355697b83ed1f88c2cd6cfa0f6758',
                salt: 'c9f572701147ab237e2274f2d0dd1144',
                cost: 1,
                keyLength: 32,
                keyPrefix: '4e4337ce328234b5988c165be30f8aef',
                keySignature: 'a43c6b1c3ba2722157c203a7cf3a8c1f70e1ff126d1d28943c072175df9ce099',
                expiresAt: 1795000000,
              },
              signature: 'bd07e78c0175c556e67719cdcc063148d6c828a555884464046c3224473b2757',
            },
          } satisfies ChallengeIssuedBody,
        },
        failureBody: errorFailureBody,
        schemaNames: { success: 'ChallengeIssued', failure: 'ChallengeFailure' },
      },
      openApi: {
        operationId: 'issueCheatSheetChallenge',
        summary: 'A proof-of-work challenge for the next send',
        description:
          'The page fetches one when the visitor submits the form and solves it before the send route: a script must do the same work for each send, and a solution serves once. The form route (no script) needs none.',
      },
    },
    entry: 'lambdas/cheat-sheet-challenge/handler.ts',
    description: `GET ${proofOfWorkChallengePath}: issues a signed proof-of-work challenge.`,
    logService: 'cheat-sheet-challenge',
    environment: 'challenge',
    // Behind CloudFront the challenges are signed with a key derived from the origin secret.
    grants: ['originSecretRead'],
  },
  countVisit: {
    id: 'CountVisit',
    trigger: {
      kind: 'http',
      method: 'GET',
      path: visitBeaconRoute,
      throttle: {
        rateLimit: 6,
        burstLimit: 12,
        reason:
          "One request per view of /: a launch's peak of 6 readers a second (core/config/launch-capacity.ts), each seeing the page once, with the burst for the second look; a request above it gets API Gateway's 429, and that view alone goes uncounted. The stage's rate grew by it (apiRateLimit 32); a month at this rate costs about 16 USD of API Gateway.",
      },
      reply: { kind: 'beacon' },
      openApi: {
        operationId: 'countVisit',
        summary: "The landing page's visit beacon",
        description: [
          'An `<img>` in the HTML of `/` loads it, so every reader counts, with JavaScript or without. It counts the visit',
          "in the author's funnel and the visitor once a day (a keyed hash of the day, the client's network and its user",
          "agent under a random salt of the day's, never the address or the agent itself), leaves out known bots, and",
          'always answers a 1×1 transparent GIF, never cached: a counting failure never shows on the page.',
        ].join(' '),
      },
    },
    entry: 'lambdas/count-visit/handler.ts',
    description: `GET ${visitBeaconRoute}: counts a visit to / in the author's funnel.`,
    logService: visitService,
    environment: 'visitCount',
    tableAccess: [
      {
        table: 'funnelVisitors',
        actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
        why: "The funnel's visitors of the day (lambdas/funnel/visitor-count.ts): a consistent GetItem reads the day's salt, a conditional PutItem makes it (the first visit of the day) and writes the visitor's hash once, DeleteItem removes the day before's salt.",
      },
      {
        table: 'limitCounters',
        actions: ['dynamodb:UpdateItem'],
        why: "The funnel's day counts (lambdas/funnel/visitor-count.ts): UpdateItem adds the visit, and the unique visitor, to the day's item.",
      },
    ],
    // Behind CloudFront the viewer's address is trusted only with the origin secret.
    grants: ['originSecretRead'],
  },

  ...backgroundFunctions,
} as const satisfies Record<string, FunctionEntry>;

/** A function's name in the catalogue. */
export type FunctionName = keyof typeof productFunctions;

/** The names of the entries an HTTP route invokes. */
export type ProductRouteName = {
  [Name in FunctionName]: (typeof productFunctions)[Name]['trigger']['kind'] extends 'http' ? Name : never;
}[FunctionName];

/** Every function, with its defaults, in the catalogue's order: what the stack and the monitoring iterate. */
export const functionList: readonly CatalogueFunction<FunctionName>[] = (
  Object.keys(productFunctions) as FunctionName[]
).map((name) => withDefaults(name, productFunctions[name]));

/** Each function by its name, with its defaults. */
export const catalogueFunctions = Object.fromEntries(functionList.map((fn) => [fn.name, fn])) as Readonly<
  Record<FunctionName, CatalogueFunction<FunctionName>>
>;

/** How often the unsent check runs, in minutes: the unsent alarm's period too. */
export const unsentCheckIntervalMinutes = productFunctions.unsentCheck.trigger.schedule.everyMinutes;

/**
 * API Gateway's integration timeout: no route's function may take longer.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html
 */
export const integrationTimeoutSeconds = 30;

/** The DynamoDB actions the functions call on one table, index included: what its alarms sum. */
export function tableActionsOf(
  table: ProductTable,
  functions: readonly Pick<CatalogueFunction, 'tableAccess'>[] = functionList,
): readonly TableAction[] {
  const granted = functions.flatMap((fn) =>
    fn.tableAccess.filter((access) => access.table === table).flatMap((access) => access.actions),
  );
  return tableActionOrder.filter((action) => granted.includes(action));
}
