/**
 * The GitHub identities, judged: GitHub's OIDC token for a workflow run, as the claims AWS reads
 * from it, against each role that trusts GitHub's provider, each held to its expectation. A push to
 * `main` running deploy.yml in the stage's environment may assume the deploy role; a pull request's
 * ci.yml the diff role; the Leads workflow dispatched from `main` the leads reader and operator
 * roles. Another branch, a pull request (for any role but diff), another workflow file, another
 * repository or a fork may assume none of them.
 */
import { jobWorkflowRef, roleWorkflows } from '../../constructs/github-workflow-trust';
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
  /** The workflow file the job runs (`job_workflow_ref`), under .github/workflows/. */
  readonly workflowFile: string;
}

/** The GitHub-trusting roles, by what they are for: each may be assumed by its own runs only. */
export type GitHubRoleKind = 'deploy' | 'diff' | 'leads';

/** Which kind a role is, from its construct's logical id; undefined: a role with no expectation. */
export function githubRoleKind(logicalId: string): GitHubRoleKind | undefined {
  if (logicalId.includes('DeployRole')) return 'deploy';
  if (logicalId.includes('DiffRole')) return 'diff';
  if (/^LeadsAccess(Reader|Operator)Role/.test(logicalId)) return 'leads';
  return undefined;
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
    [`${githubIssuer}:job_workflow_ref`]: jobWorkflowRef(run.repository, run.workflowFile, run.ref),
    ...(run.environment && { [`${githubIssuer}:environment`]: run.environment }),
  };
}

/** The runs every GitHub-trusting role is judged with, and the one kind of role (if any) each may assume. */
export function workflowRuns(
  repository: string,
  environment: string,
): { run: WorkflowRun; mayAssume?: GitHubRoleKind }[] {
  const [, name] = repository.split('/');
  const main = 'refs/heads/main';
  const pullRequest = 'refs/pull/12/merge';
  const run = (description: string, fields: Omit<WorkflowRun, 'description'>) => ({ description, ...fields });
  return [
    {
      run: run(`push to main in environment ${environment}`, {
        repository,
        ref: main,
        environment,
        event: 'push',
        workflowFile: roleWorkflows.deploy,
      }),
      mayAssume: 'deploy',
    },
    {
      run: run(`push to another branch in environment ${environment}`, {
        repository,
        ref: 'refs/heads/feature',
        environment,
        event: 'push',
        workflowFile: roleWorkflows.deploy,
      }),
    },
    {
      run: run(`pull request's diff in environment ${environment}`, {
        repository,
        ref: pullRequest,
        environment,
        event: 'pull_request',
        workflowFile: roleWorkflows.diff,
      }),
      mayAssume: 'diff',
    },
    {
      run: run('pull request without the environment', {
        repository,
        ref: pullRequest,
        event: 'pull_request',
        workflowFile: roleWorkflows.diff,
      }),
    },
    {
      run: run(`Leads workflow dispatched from main in environment ${environment}`, {
        repository,
        ref: main,
        environment,
        event: 'workflow_dispatch',
        workflowFile: roleWorkflows.leads,
      }),
      mayAssume: 'leads',
    },
    {
      run: run(`Leads workflow dispatched from another branch in environment ${environment}`, {
        repository,
        ref: 'refs/heads/feature',
        environment,
        event: 'workflow_dispatch',
        workflowFile: roleWorkflows.leads,
      }),
    },
    {
      run: run(`pull request running the Leads workflow in environment ${environment}`, {
        repository,
        ref: pullRequest,
        environment,
        event: 'pull_request',
        workflowFile: roleWorkflows.leads,
      }),
    },
    {
      run: run(`another workflow on main in environment ${environment}`, {
        repository,
        ref: main,
        environment,
        event: 'push',
        workflowFile: 'other.yml',
      }),
    },
    {
      run: run(`another repository's push to main in environment ${environment}`, {
        repository: `someone-else/other`,
        ref: main,
        environment,
        event: 'push',
        workflowFile: roleWorkflows.deploy,
      }),
    },
    {
      run: run(`another repository's Leads workflow from main in environment ${environment}`, {
        repository: `someone-else/other`,
        ref: main,
        environment,
        event: 'workflow_dispatch',
        workflowFile: roleWorkflows.leads,
      }),
    },
    {
      run: run(`a fork's push to main in environment ${environment}`, {
        repository: `forker/${name}`,
        ref: main,
        environment,
        event: 'push',
        workflowFile: roleWorkflows.deploy,
      }),
    },
  ];
}

/** The roles whose trust names GitHub's provider. */
export function githubTrustingRoles(stacks: readonly DeployedStack[]): RoleView[] {
  return rolesOf(stacks).filter((role) => JSON.stringify(role.trustPolicy).includes(`oidc-provider/${githubIssuer}`));
}

/**
 * The claims the evaluator drops from a request (judge.ts), and `job_workflow_ref`, which it may not
 * know: compared here, by the statement's own operator.
 */
const claimsCheckedHere = [`${githubIssuer}:sub`, `${githubIssuer}:aud`, `${githubIssuer}:job_workflow_ref`];

/**
 * Judges one run against one role's trust: the evaluator judges every condition but `sub`, `aud`
 * and `job_workflow_ref`, which each Allow statement keeps only when its StringEquals or StringLike
 * on them holds.
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
