/**
 * Every route of the HTTP API and the function behind it, once: the CDK `Api` construct builds one
 * `ProductFunction` per entry (bundled from `entry`, sized by `memoryMb` and `timeoutSeconds`,
 * granted exactly `tableAccess` and `grants`), the local twin mounts the same list, and the
 * monitoring reads which table operations the functions call from it.
 *
 * To add a route: add an entry below, write its handler at `entry`, and (for a JSON route) its
 * replies in `core/api/replies.ts`.
 */

import { replyMarginMs, worstCaseSdkCallMs } from '../../config/sdk-timeouts';
import { functionServices, submitFormLogService, type FunctionService } from '../../observability/product-metrics';
import { apiRoutes, cheatSheetFormRoute } from '../routes';

/** The two tables, by what they hold (core/data/tables.ts). */
export type ProductTable = 'requests' | 'limitCounters';

/** The DynamoDB actions the functions call. */
export type TableAction =
  'dynamodb:PutItem' | 'dynamodb:GetItem' | 'dynamodb:UpdateItem' | 'dynamodb:Query' | 'dynamodb:BatchGetItem';

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

export interface ProductRoute {
  /** Its name: also the CDK id prefix of its function, role, log group and integration. */
  readonly id: 'SaveRequest' | 'SendCheatSheet' | 'SubmitForm';
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
  readonly environment: RouteEnvironment;
  readonly tableAccess: readonly TableAccess[];
  readonly grants: readonly OtherGrant[];
  /** How it answers: JSON (the save or the send route's failure body) or the form's pages. */
  readonly reply: 'saveRequest' | 'sendCheatSheet' | 'form';
}

const worstCaseSeconds = worstCaseSdkCallMs / 1000;

const saveTableAccess: readonly TableAccess[] = [
  { table: 'requests', actions: ['dynamodb:PutItem'], why: 'Stores the request as one new item.' },
  {
    table: 'limitCounters',
    actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem'],
    why: "The client's and the network's hourly save limits (rolling-counter.ts): UpdateItem to seal and to claim (and to give back after a failed write), a consistent BatchGetItem of the window's earlier buckets, a consistent GetItem to tell a full bucket from a sealed one.",
  },
];

/** Behind CloudFront, the save function proves a request came through it, and keys its counters, with the origin secret. */
const saveGrants: readonly OtherGrant[] = ['originSecretRead'];

const sendTableAccess: readonly TableAccess[] = [
  {
    table: 'requests',
    emailIndex: true,
    actions: ['dynamodb:Query'],
    why: "Finds the address's newest unsent request, through the e-mail index only.",
  },
  {
    table: 'requests',
    actions: ['dynamodb:UpdateItem'],
    why: 'Always conditional: flags the request as sent, and records a send that had no request to flag (createSent creates the item with UpdateItem and attribute_not_exists(id)), so no PutItem. No GetItem: requests are read through the index only.',
  },
  {
    table: 'limitCounters',
    actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem'],
    why: "The address's daily cap (address-daily-cap.ts): a consistent GetItem, then a conditional UpdateItem that also sets the TTL. The client's and the budget's rolling counters (rolling-counter.ts): UpdateItem to seal and to claim, a consistent BatchGetItem of the window's earlier buckets.",
  },
];

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
    timeoutReason: `Reads the origin secret (cold containers only), claims the two save limits (UpdateItem, BatchGetItem, UpdateItem each), then one PutItem. Each call takes a few milliseconds; one failing call (${worstCaseSeconds} s) plus the others at their usual speed leaves about 3 s to spare.`,
    logService: functionServices.saveRequest,
    metricsServices: [functionServices.saveRequest],
    environment: 'saveRequest',
    tableAccess: saveTableAccess,
    grants: saveGrants,
    reply: 'saveRequest',
  },
  sendCheatSheet: {
    id: 'SendCheatSheet',
    method: 'POST',
    path: apiRoutes.sendCheatSheet,
    entry: 'lambdas/send-cheat-sheet/handler.ts',
    description: `POST ${apiRoutes.sendCheatSheet}: e-mails the cheat sheet.`,
    memoryMb: 512,
    memoryReason: "Keeps the bundle's cold start and the PDF's base64 encoding quick.",
    timeoutSeconds: 15,
    timeoutReason: `Reads the origin secret and the PDF (cold containers only), claims a slot of each limit (UpdateItem, BatchGetItem, UpdateItem for each rolling counter; GetItem, UpdateItem for the address), calls SES, then finds and flags the request (Query, UpdateItem; up to two 150 ms pauses). Each call takes a few milliseconds; a service that stalls fails its first call, so one failing call (${worstCaseSeconds} s) plus the others at their usual speed is the worst case: 15 s leaves over 5 s to spare.`,
    logService: functionServices.sendCheatSheet,
    metricsServices: [functionServices.sendCheatSheet],
    environment: 'sendCheatSheet',
    tableAccess: sendTableAccess,
    grants: sendGrants,
    reply: 'sendCheatSheet',
  },
  submitForm: {
    id: 'SubmitForm',
    method: 'POST',
    path: cheatSheetFormRoute,
    entry: 'lambdas/submit-form/handler.ts',
    description: `POST ${cheatSheetFormRoute}: the form without its script; saves, sends, redirects to a result page.`,
    memoryMb: 512,
    memoryReason: 'As the send function, for the same PDF work.',
    timeoutSeconds: 20,
    timeoutReason: `Saves then sends in one invocation. When DynamoDB stalls, the save fails (${worstCaseSeconds} s) and so does the send's first call to it (${worstCaseSeconds} s), the rest at their usual speed: about 15 s, so 20 s leaves 5 s to spare.`,
    logService: submitFormLogService,
    // Its saves and sends count where the JSON routes' do: the funnel and the alarms cover both ways in.
    metricsServices: [functionServices.saveRequest, functionServices.sendCheatSheet],
    environment: 'both',
    // Exactly the save function's grants plus the send function's: it takes the same two steps.
    tableAccess: [...saveTableAccess, ...sendTableAccess],
    grants: sendGrants,
    reply: 'form',
  },
} as const satisfies Record<string, ProductRoute>;

export type ProductRouteName = keyof typeof productRoutes;

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
