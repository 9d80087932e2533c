/**
 * Every AWS call the functions made in the rehearsal's scenarios, judged as AWS would (judge.ts)
 * against the caller's role policies from the template and the resource's own policy (the key
 * policy for each KMS call a service makes in the caller's name, the bucket's, the queue's). Then
 * least privilege both ways: the grants no call used, each with its reason, and each function
 * judged on the other functions' calls, refused unless its catalogue entry grants the same.
 */
import { catalogueFunctions } from '../../../core/api/catalogue/functions';
import type { CatalogueFunction, OtherGrant, ProductTable } from '../../../core/api/catalogue/function-entry';
import {
  emailIndex,
  funnelVisitorsTable,
  idempotencyTable,
  limitCountersTable,
  requestsTable,
} from '../../../core/data/tables';
import { CallReader, type AuthorizedRequest, type RecordedAwsCall } from './aws-calls';
import type { DeployedStack } from './deployed-stacks';
import { judge, type Judgement, type Policies } from './judge';
import { lambdaRuntimeRequests, runtimeScenario } from './lambda-runtime-calls';
import { resourcePolicyOf, roleByArn, type Statement } from './policies';

/** Who signs with which access key id. */
export interface Caller {
  readonly accessKeyId: string;
  /** The function's catalogue name, or the ops command's. */
  readonly name: string;
  readonly roleArn: string;
  readonly account: string;
  /** A function's own ARN and region: Lambda's runtime calls with its role are judged too. */
  readonly arn?: string;
  readonly region?: string;
  /** The policies of a role no template holds (CDK's bootstrap lookup role). @default - the role's in the stacks */
  readonly policies?: Policies['identity'];
}

export interface RecordedCallOf extends RecordedAwsCall {
  readonly accessKeyId: string;
  readonly scenario: string;
}

/** One request a caller made, judged. */
export interface JudgedRequest extends AuthorizedRequest {
  readonly caller: Caller;
  readonly scenario: string;
  readonly judgement: Judgement;
}

export interface FunctionCallsReport {
  readonly callsRecorded: number;
  /** Distinct requests (caller, action, resource, context) judged, KMS calls implied included. */
  readonly requestsJudged: number;
  readonly judged: readonly JudgedRequest[];
  readonly refusals: readonly string[];
  /** Calls no rule could read, or made with a key no caller owns: each fails the rehearsal. */
  readonly unreadable: readonly string[];
  /** Calls IAM does not authorize (STS GetCallerIdentity), as `caller (scenario): action`. */
  readonly withoutPermission: readonly string[];
}

/** Reads and judges every recorded call; each distinct request is judged once. */
export async function judgeFunctionCalls(
  stacks: readonly DeployedStack[],
  callers: readonly Caller[],
  calls: readonly RecordedCallOf[],
): Promise<FunctionCallsReport> {
  const judged = new Map<string, JudgedRequest>();
  const unreadable: string[] = [];
  const withoutPermission = new Set<string>();
  const readers = new Map<string, CallReader>();
  const keyedFor = leadingKeysWhereRead(stacks);
  for (const call of calls) {
    const caller = callers.find((candidate) => candidate.accessKeyId === call.accessKeyId);
    if (!caller) {
      unreadable.push(`${call.scenario}: a call signed by ${call.accessKeyId}, no known caller`);
      continue;
    }
    const reader = readers.get(caller.account) ?? new CallReader(stacks, caller.account);
    readers.set(caller.account, reader);
    const reading = reader.read(call);
    if ('unreadable' in reading) {
      unreadable.push(`${caller.name} (${call.scenario}): ${reading.unreadable}`);
      continue;
    }
    if (reading.withoutPermission)
      withoutPermission.add(`${caller.name} (${call.scenario}): ${reading.withoutPermission}`);
    for (const read of reading.requests) {
      const request = keyedFor(caller, read);
      const key = requestKey(caller.roleArn, request);
      if (judged.has(key)) continue;
      judged.set(key, {
        ...request,
        caller,
        scenario: call.scenario,
        judgement: await judgeAs(stacks, caller.roleArn, request, caller.policies),
      });
    }
  }
  for (const caller of callers) {
    if (!caller.arn || !caller.region) continue;
    const fn = { arn: caller.arn, region: caller.region, account: caller.account };
    for (const request of lambdaRuntimeRequests(stacks, fn)) {
      const key = requestKey(caller.roleArn, request);
      if (judged.has(key)) continue;
      const judgement = await judgeAs(stacks, caller.roleArn, request, caller.policies);
      judged.set(key, { ...request, caller, scenario: runtimeScenario, judgement });
    }
  }
  const all = [...judged.values()];
  return {
    callsRecorded: calls.length,
    requestsJudged: all.length,
    judged: all,
    refusals: all.filter((request) => !request.judgement.allowed).map(describeRefusal),
    unreadable,
    withoutPermission: [...withoutPermission],
  };
}

/**
 * Moves a request's `leadingKeys` into its context as `dynamodb:LeadingKeys` for a caller whose
 * policies read that condition key (the digest's GetItem of the funnel's day counts), and drops it
 * for the others: their statements do not read it, and with it each item's key would be a request
 * of its own to judge.
 */
function leadingKeysWhereRead(stacks: readonly DeployedStack[]) {
  const readsLeadingKeys = new Map<string, boolean>();
  return (caller: Caller, request: AuthorizedRequest): AuthorizedRequest => {
    const { leadingKeys, ...rest } = request;
    if (!leadingKeys) return request;
    let reads = readsLeadingKeys.get(caller.roleArn);
    if (reads === undefined) {
      const policies = caller.policies ?? roleByArn(stacks, caller.roleArn)?.identityPolicies ?? [];
      reads = JSON.stringify(policies).includes('dynamodb:LeadingKeys');
      readsLeadingKeys.set(caller.roleArn, reads);
    }
    return reads ? { ...rest, context: { ...rest.context, 'dynamodb:LeadingKeys': leadingKeys } } : rest;
  };
}

const requestKey = (principal: string, request: AuthorizedRequest) =>
  `${principal} ${request.action} ${request.resource} ${JSON.stringify(request.context ?? {})}`;

/** Judges a request as the role `roleArn` (its policies from the stacks, or `identity`; none when the role is not in them). */
export function judgeAs(
  stacks: readonly DeployedStack[],
  roleArn: string,
  request: AuthorizedRequest,
  identity: Policies['identity'] = roleByArn(stacks, roleArn)?.identityPolicies ?? [],
): Promise<Judgement> {
  return judge(
    {
      principal: roleArn,
      action: request.action,
      resource: request.resource,
      resourceAccount: request.holder?.stack.account ?? roleArn.split(':')[4],
      ...(request.context && { context: request.context }),
    },
    {
      identity,
      ...(request.holder && { resource: resourcePolicyOf(stacks, request.holder) }),
    },
  );
}

function describeRefusal(request: JudgedRequest): string {
  const holder = request.holder ? ` (${request.holder.logicalId}'s policy)` : '';
  const missing = request.judgement.missing
    .map((side) => (side.includes("resource's policy") ? `${side}${holder}` : side))
    .join('; ');
  return (
    `${request.caller.name} (${request.scenario}): ${request.caller.roleArn} may not ${request.action} on ${request.resource}` +
    `${request.impliedBy ? `, which ${request.impliedBy} implies` : ''} (missing ${missing || request.judgement.decision})`
  );
}

/** IAM's wildcard match (`*`, `?`), case-insensitive for actions. */
function matches(pattern: string, value: string, ignoreCase: boolean): boolean {
  const expression = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${expression}$`, ignoreCase ? 'i' : '').test(value);
}

const list = (value: string | readonly string[] | undefined) =>
  value === undefined ? [] : typeof value === 'string' ? [value] : value;

/** Whether a statement's actions and resources cover a request (its conditions are not read). */
export function statementCovers(statement: Statement, request: Pick<AuthorizedRequest, 'action' | 'resource'>) {
  return (
    list(statement.Action).some((action) => matches(action, request.action, true)) &&
    list(statement.Resource ?? '*').some((resource) => matches(resource, request.resource, false))
  );
}

/**
 * Whether a statement alone allows a request its caller made: its action, its resource and its
 * conditions, judged by the evaluator against the request's context (the statement as the caller's
 * only policy; the resource's policy is not consulted, so a key's or a bucket's own Allow does not
 * count for the statement).
 */
export async function statementUses(
  statement: Statement,
  roleArn: string,
  request: AuthorizedRequest,
): Promise<boolean> {
  if (!statementCovers(statement, request)) return false;
  const judgement = await judgeAs([], roleArn, { ...request, holder: undefined }, [
    { name: 'the statement alone', policy: { Version: '2012-10-17', Statement: [statement] } },
  ]);
  return judgement.identityAllowed;
}

/** Why a grant no call used is kept: the catalogue's reason for the action on that table, or a known cause. */
/** What DeadLetterAccess gives the leads operator roles (infra/constructs/dead-letter-access.ts). */
const deadLetterActions = [
  'sqs:GetQueueAttributes',
  'sqs:ReceiveMessage',
  'sqs:DeleteMessage',
  'sqs:SendMessage',
  'lambda:InvokeFunction',
];

function reasonFor(
  fn: CatalogueFunction | undefined,
  actions: readonly string[],
  resources: readonly string[],
): string {
  if (actions.every((action) => ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl'].includes(action))) {
    return "CDK's grant for an on-failure destination adds them to SendMessage; Lambda sends with SendMessage alone (kept as the library writes it)";
  }
  const pollerActions = [
    'sqs:ReceiveMessage',
    'sqs:DeleteMessage',
    'sqs:ChangeMessageVisibility',
    'sqs:GetQueueAttributes',
    'sqs:GetQueueUrl',
  ];
  if (fn?.trigger.kind === 'queue' && actions.every((action) => pollerActions.includes(action))) {
    return "the queue's event source mapping: Lambda's poller calls them as the function's role, and the rehearsal delivers the messages itself";
  }
  const streamPollerActions = [
    'dynamodb:ListStreams',
    'dynamodb:DescribeStream',
    'dynamodb:GetRecords',
    'dynamodb:GetShardIterator',
  ];
  if (fn && actions.every((action) => streamPollerActions.includes(action))) {
    return "the table stream's event source mapping (the lead hand-off's): Lambda's poller reads the stream as the function's role, and the rehearsal delivers the records itself";
  }
  if (fn && actions.every((action) => action === 'kms:DescribeKey')) {
    return "CDK's grant to read a stream under a customer key pairs it with kms:Decrypt on the key: Lambda's poller reads the stream as the function's role";
  }
  if (fn?.grants.includes('sendQueueWrite') && actions.every((action) => action === 'sqs:SendMessage')) {
    return "a send SES's rate has no slot for goes to the send queue: the crowd scenario shows it on the send route, whose send step this function runs too";
  }
  if (!fn && actions.every((action) => deadLetterActions.includes(action))) {
    return 'leads dead-letters (ops/leads/dead-letters.ts): no rehearsed scenario leaves work in a dead-letter queue; test/ops/leads/leads-dead-letters.test.ts runs the command';
  }
  if (!fn && actions.every((action) => action === 'dynamodb:UpdateItem')) {
    return "rekey's move of a suppression entry still under a plain SHA-256 id to its keyed id: the rehearsal's fresh tables hold none";
  }
  const why = fn?.tableAccess.find(
    (access) =>
      access.actions.some((action) => actions.includes(action)) &&
      resources.some((resource) => resource.includes(`:table/${tableNames[access.table]}`)),
  )?.why;
  return why ? `no scenario made this call; the catalogue's reason: ${why}` : 'no scenario made this call';
}

/**
 * The actions of each Allow statement of a caller's role that none of its allowed requests used,
 * each with its reason. A request uses an action of a statement only when the statement alone
 * allows it (statementUses: action, resource and conditions).
 */
export async function unusedGrants(
  stacks: readonly DeployedStack[],
  callers: readonly Caller[],
  judged: readonly JudgedRequest[],
): Promise<string[]> {
  const unused: string[] = [];
  for (const caller of callers) {
    const role = roleByArn(stacks, caller.roleArn);
    if (!role) continue;
    const used = judged.filter((request) => request.caller === caller && request.judgement.allowed);
    const fn = (catalogueFunctions as Readonly<Record<string, CatalogueFunction>>)[caller.name];
    for (const { name, policy } of role.identityPolicies) {
      for (const [index, statement] of policy.Statement.entries()) {
        if (statement.Effect !== 'Allow') continue;
        const idle: string[] = [];
        for (const action of list(statement.Action)) {
          let usedOnce = false;
          for (const request of used) {
            if (await statementUses({ ...statement, Action: action }, caller.roleArn, request)) {
              usedOnce = true;
              break;
            }
          }
          if (!usedOnce) idle.push(action);
        }
        if (idle.length === 0) continue;
        unused.push(
          `${caller.name}: ${name} statement ${index}: ${idle.join(', ')}: ${reasonFor(fn, idle, list(statement.Resource))}`,
        );
      }
    }
  }
  return unused;
}

const tableNames: Readonly<Record<ProductTable, string>> = {
  requests: requestsTable.name,
  limitCounters: limitCountersTable.name,
  idempotency: idempotencyTable.name,
  funnelVisitors: funnelVisitorsTable.name,
};

const otherGrantActions: Readonly<Record<OtherGrant, readonly string[]>> = {
  cheatSheetRead: ['s3:GetObject'],
  emailSend: ['ses:SendEmail'],
  originSecretRead: ['secretsmanager:GetSecretValue'],
  sendingPause: ['ses:PutConfigurationSetSendingOptions'],
  sendQuotaRead: ['ses:GetAccount'],
  sendQueueWrite: ['sqs:SendMessage'],
};

/** Whether a function's catalogue entry grants a request (its table access and its other grants). */
export function catalogueGrants(fn: CatalogueFunction, request: Pick<AuthorizedRequest, 'action' | 'resource'>) {
  if (fn.grants.some((grant) => otherGrantActions[grant].includes(request.action))) return true;
  const [, table, index] = /:table\/([^/]+)(?:\/index\/([^/]+))?$/.exec(request.resource) ?? [];
  return fn.tableAccess.some(
    (access) =>
      tableNames[access.table] === table &&
      (access.actions as readonly string[]).includes(request.action) &&
      (access.index ?? (access.emailIndex ? emailIndex.name : undefined)) === index,
  );
}

/**
 * Each function judged on every other function's calls (KMS calls aside: the key policy lets each
 * function through DynamoDB only, judged with its own calls): a call its catalogue entry does not
 * grant must be refused. Returns each that is allowed.
 */
export async function othersCallsAllowed(
  stacks: readonly DeployedStack[],
  callers: readonly Caller[],
  judged: readonly JudgedRequest[],
): Promise<string[]> {
  const allowed: string[] = [];
  const functions = catalogueFunctions as Readonly<Record<string, CatalogueFunction>>;
  for (const caller of callers) {
    const fn = functions[caller.name];
    if (!fn) continue;
    const role = roleByArn(stacks, caller.roleArn);
    const seen = new Set<string>();
    for (const request of judged) {
      if (request.caller === caller || request.action.startsWith('kms:') || request.scenario === runtimeScenario)
        continue;
      const key = `${request.action} ${request.resource}`;
      if (seen.has(key) || catalogueGrants(fn, request)) continue;
      seen.add(key);
      if ((await judgeAs(stacks, caller.roleArn, request, role?.identityPolicies ?? [])).allowed) {
        allowed.push(`${caller.name} may ${request.action} on ${request.resource} (${request.caller.name}'s call)`);
      }
    }
  }
  return allowed;
}
