/**
 * One request judged as AWS would: `@cloud-copilot/iam-simulate` evaluates the caller's identity
 * policies and the resource's policy (explicit denies, the same-account and KMS key-policy rules,
 * every condition operator); a role's trust policy must allow `sts:AssumeRole` itself, which this
 * module adds (IAM's exception for roles, like a key policy's). What it does not model, and so the rehearsal does not prove:
 * service control and resource control policies (none here), session policies, permission
 * boundaries, KMS grants (DynamoDB's own grants on the leads key are created by DynamoDB), and the
 * OIDC claims `sub` and `aud`, which it drops from the request (deploy-identity.ts compares those
 * two itself). The evaluator reads no `kms:EncryptionContext:…` key (it takes them as missing, so a
 * key policy's encryption-context condition could only deny): each is renamed, on both the request
 * and the policies, to a global condition key it does read, with the same value and the same
 * operator (`kms:EncryptionContext:aws:logs:arn` → `aws:PrincipalTag/encryption-context-awslogsarn`);
 * judge.test.ts shows a matching context allowed and another denied.
 */
import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { Policy } from './policies';

export interface Request {
  /** The caller: a role's ARN, a service principal (`cloudwatch.amazonaws.com`) or a federated provider's ARN. */
  readonly principal: string;
  readonly action: string;
  readonly resource: string;
  /** The account that owns the resource. */
  readonly resourceAccount: string;
  readonly context?: Readonly<Record<string, string | readonly string[]>>;
}

export interface Judgement {
  readonly allowed: boolean;
  /** `Allowed`, `ImplicitlyDenied` or `ExplicitlyDenied`, or the evaluator's error. */
  readonly decision: string;
  /** Which side failed, for the message: the caller's policies, the resource's, or an explicit deny. */
  readonly missing: readonly string[];
  /** Whether the caller's own policies allow it, whatever the resource's say. */
  readonly identityAllowed: boolean;
}

export interface Policies {
  readonly identity: readonly { readonly name: string; readonly policy: Policy }[];
  readonly resource?: Policy;
}

/** Judges one request against the policies; never throws for a denial. */
export async function judge(request: Request, policies: Policies): Promise<Judgement> {
  const context = { ...request.context } as Record<string, string | string[]>;
  if (request.principal.startsWith('arn:') && /:(role|user)\//.test(request.principal)) {
    // IAM fills these in for a signed request; the evaluator needs them given.
    context['aws:PrincipalArn'] ??= request.principal;
    context['aws:PrincipalAccount'] ??= request.principal.split(':')[4];
  }
  const result = await runSimulation(
    {
      request: {
        principal: request.principal,
        action: request.action,
        resource: { resource: request.resource, accountId: request.resourceAccount },
        contextVariables: withPlainContextKeys(context),
      },
      identityPolicies: policies.identity.map(({ name, policy }) => ({ name, policy: withPlainContextKeys(policy) })),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      ...(policies.resource &&
        policies.resource.Statement.length > 0 && { resourcePolicy: withPlainContextKeys(policies.resource) }),
    },
    {},
  );
  if (result.resultType === 'error') {
    return {
      allowed: false,
      decision: `invalid request: ${JSON.stringify(result.errors)}`,
      missing: [],
      identityAllowed: false,
    };
  }
  const analysis = result.resultType === 'single' ? result.result.analysis : undefined;
  const missing: string[] = [];
  if (analysis?.identityAnalysis && analysis.identityAnalysis.result !== 'Allowed' && !isService(request.principal)) {
    missing.push(`an Allow in the caller's policies (${analysis.identityAnalysis.result})`);
  }
  if (analysis?.resourceAnalysis && analysis.resourceAnalysis.result !== 'Allowed' && policies.resource) {
    missing.push(`an Allow in the resource's policy (${analysis.resourceAnalysis.result})`);
  }
  if (result.overallResult === 'ExplicitlyDenied') missing.push('no explicit Deny (one matched)');
  // A role's trust policy must allow its assumption itself, even in the role's own account (IAM's
  // exception for roles, which the evaluator treats as any resource policy): naming the caller's ARN
  // there is enough, the caller's own Allow alone never is. A trust naming the caller's account
  // (`AllowedForAccount`) admits it when its own policy allows too: the break-glass role's.
  const trustMissing =
    /^sts:AssumeRole/i.test(request.action) &&
    /:role\//.test(request.resource) &&
    !['Allowed', 'AllowedForAccount'].includes(analysis?.resourceAnalysis?.result ?? '');
  if (trustMissing && result.overallResult === 'Allowed') missing.push("an Allow in the role's trust policy");
  return {
    allowed: result.overallResult === 'Allowed' && !trustMissing,
    decision: result.overallResult,
    missing,
    // A request on `*` (an action with no resource) is judged per resource type: each must allow it.
    identityAllowed:
      result.resultType === 'single'
        ? analysis?.identityAnalysis?.result === 'Allowed'
        : result.results.length > 0 &&
          result.results.every((each) => each.analysis.identityAnalysis?.result === 'Allowed'),
  };
}

function isService(principal: string): boolean {
  return principal.endsWith('.amazonaws.com');
}

const encryptionContextPrefix = 'kms:encryptioncontext:';

/**
 * `kms:EncryptionContext:aws:logs:arn` → `aws:PrincipalTag/encryption-context-awslogsarn`, in keys
 * of any depth: a global key the evaluator reads. Condition keys are case-insensitive, so the name
 * is lower-cased; no policy of this product uses a principal tag, so the stand-in names nothing else.
 */
function plainKey(key: string): string {
  if (!key.toLowerCase().startsWith(encryptionContextPrefix)) return key;
  return `aws:PrincipalTag/encryption-context-${key.slice(encryptionContextPrefix.length).replaceAll(':', '').toLowerCase()}`;
}

function withPlainContextKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => withPlainContextKeys(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [plainKey(key), withPlainContextKeys(item as unknown)]),
  ) as T;
}
