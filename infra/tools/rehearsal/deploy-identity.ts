/**
 * The deploy identity, judged: GitHub's OIDC token for a workflow run, as the claims AWS reads
 * from it, against each role that trusts GitHub's provider. A push to `main` in the stage's
 * environment may assume the deploy role; another branch, a pull request, another repository or a
 * fork may not. A pull request's `cdk diff` assumes the diff role only.
 */
import type { DeployedStack } from './deployed-stacks';
import { judge, type Judgement } from './judge';
import { rolesOf, type RoleView } from './policies';

export const githubIssuer = 'token.actions.githubusercontent.com';

/** A workflow run's token, in the claims AWS reads (GitHub's default `sub` template). */
export interface WorkflowRun {
  readonly description: string;
  readonly repository: string;
  /** `refs/heads/main`, `refs/pull/12/merge`… */
  readonly ref: string;
  readonly environment?: string;
  readonly event: 'push' | 'pull_request' | 'workflow_dispatch';
}

/** GitHub's claims for a run: `sub` is `repo:O/N:environment:E` in an environment, else by event. */
export function tokenClaims(run: WorkflowRun): Record<string, string> {
  const context = run.environment
    ? `environment:${run.environment}`
    : run.event === 'pull_request'
      ? 'pull_request'
      : `ref:${run.ref}`;
  return {
    [`${githubIssuer}:sub`]: `repo:${run.repository}:${context}`,
    [`${githubIssuer}:aud`]: 'sts.amazonaws.com',
    [`${githubIssuer}:repository`]: run.repository,
    [`${githubIssuer}:ref`]: run.ref,
    ...(run.environment && { [`${githubIssuer}:environment`]: run.environment }),
  };
}

/** The runs every deploy identity is judged with, for a repository and a stage's environment. */
export function workflowRuns(
  repository: string,
  environment: string,
): { run: WorkflowRun; deploys: boolean; diffs: boolean }[] {
  const [, name] = repository.split('/');
  return [
    {
      run: {
        description: `push to main in environment ${environment}`,
        repository,
        ref: 'refs/heads/main',
        environment,
        event: 'push',
      },
      deploys: true,
      diffs: false,
    },
    {
      run: {
        description: `push to another branch in environment ${environment}`,
        repository,
        ref: 'refs/heads/feature',
        environment,
        event: 'push',
      },
      deploys: false,
      diffs: false,
    },
    {
      run: {
        description: `pull request's diff in environment ${environment}`,
        repository,
        ref: 'refs/pull/12/merge',
        environment,
        event: 'pull_request',
      },
      deploys: false,
      diffs: true,
    },
    {
      run: {
        description: 'pull request without the environment',
        repository,
        ref: 'refs/pull/12/merge',
        event: 'pull_request',
      },
      deploys: false,
      diffs: false,
    },
    {
      run: {
        description: `another repository's push to main in environment ${environment}`,
        repository: `someone-else/other`,
        ref: 'refs/heads/main',
        environment,
        event: 'push',
      },
      deploys: false,
      diffs: false,
    },
    {
      run: {
        description: `a fork's push to main in environment ${environment}`,
        repository: `forker/${name}`,
        ref: 'refs/heads/main',
        environment,
        event: 'push',
      },
      deploys: false,
      diffs: false,
    },
  ];
}

/** The roles whose trust names GitHub's provider. */
export function githubTrustingRoles(stacks: readonly DeployedStack[]): RoleView[] {
  return rolesOf(stacks).filter((role) => JSON.stringify(role.trustPolicy).includes(`oidc-provider/${githubIssuer}`));
}

/** The claims the evaluator drops from a request (judge.ts): compared here, by the statement's own operator. */
const claimsCheckedHere = [`${githubIssuer}:sub`, `${githubIssuer}:aud`];

/**
 * Judges one run against one role's trust: the evaluator judges every condition but `sub` and
 * `aud`, which each Allow statement keeps only when its StringEquals or StringLike on them holds.
 */
export async function judgeRun(role: RoleView, run: WorkflowRun): Promise<Judgement> {
  const claims = tokenClaims(run);
  const statements = role.trustPolicy.Statement.flatMap((statement) => {
    const condition: Record<string, Record<string, unknown>> = {};
    let holds = true;
    for (const [operator, entries] of Object.entries(statement.Condition ?? {})) {
      const kept: Record<string, unknown> = {};
      for (const [key, expected] of Object.entries(entries)) {
        if (!claimsCheckedHere.includes(key)) {
          kept[key] = expected;
          continue;
        }
        const values = (Array.isArray(expected) ? expected : [expected]).map(String);
        const actual = claims[key] ?? '';
        const matches =
          operator === 'StringEquals'
            ? values.includes(actual)
            : operator === 'StringLike'
              ? values.some((pattern) => globMatches(pattern, actual))
              : false;
        if (!matches) holds = false;
      }
      if (Object.keys(kept).length > 0) condition[operator] = kept;
    }
    if (statement.Effect === 'Allow' && !holds) return [];
    return [
      { ...statement, ...(Object.keys(condition).length > 0 ? { Condition: condition } : { Condition: undefined }) },
    ];
  });
  const provider = `arn:aws:iam::${role.resource.stack.account}:oidc-provider/${githubIssuer}`;
  return judge(
    {
      principal: provider,
      action: 'sts:AssumeRoleWithWebIdentity',
      resource: role.arn,
      resourceAccount: role.resource.stack.account,
      context: claims,
    },
    { identity: [], resource: { Version: '2012-10-17', Statement: statements.map(withoutUndefined) } },
  );
}

function withoutUndefined<T extends object>(statement: T): T {
  return Object.fromEntries(Object.entries(statement).filter(([, value]) => value !== undefined)) as T;
}

/** IAM's StringLike: `*` any run of characters, `?` one. */
function globMatches(pattern: string, value: string): boolean {
  const expression = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${expression}$`).test(value);
}
