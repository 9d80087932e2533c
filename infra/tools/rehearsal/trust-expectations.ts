/**
 * Every role's trust held to its expectation, both ways: who may assume it, and no one else.
 * - A role that trusts GitHub's provider: its own runs only (deploy-identity.ts: the deploy role a
 *   push to main running deploy.yml, the diff role a pull request's ci.yml, the leads roles the
 *   Leads workflow dispatched from main, each in the stage's environment); a role of no known kind
 *   may be assumed by no run.
 * - A role that trusts AWS principals: the send function's role, the leads operator and break-glass
 *   roles of its own stack (resend sends as the function); the break-glass role, its own account's
 *   principals with MFA only. Any other principal is beyond every expectation.
 * - A role that trusts a service: Lambda only (every role of the product is a function's).
 * Each refusal names the role and its trust policy's statement.
 */
import type { DeployedStack } from './deployed-stacks';
import { githubRoleKind, githubTrustingRoles, judgeRun, workflowRuns } from './deploy-identity';
import { judge } from './judge';
import { rolesOf, type RoleView, type Statement } from './policies';

export interface TrustJudgement {
  readonly runsJudged: number;
  readonly refusals: readonly string[];
}

const list = (value: unknown): string[] => (value === undefined ? [] : [value].flat().map(String));
const principalsOf = (statement: Statement, kind: 'AWS' | 'Service'): string[] =>
  list((statement.Principal as Record<string, unknown> | undefined)?.[kind]);

/** The services a role of the product may be trusted by. */
export const expectedServicePrincipals: readonly string[] = ['lambda.amazonaws.com'];

/** Whether a role is the send function's (its trust admits the operator roles, for resend). */
const isSendFunctionRole = (role: RoleView) => /SendCheatSheetRole/.test(role.resource.logicalId);
const isBreakGlassRole = (role: RoleView) => role.resource.logicalId.startsWith('LeadsAccessBreakGlassRole');
const isOperatorRole = (role: RoleView) => /^LeadsAccess(Operator|BreakGlass)Role/.test(role.resource.logicalId);

/** Each GitHub-trusting role judged with every run: exactly its own runs may assume it. */
export async function judgeGitHubTrusts(
  stacks: readonly DeployedStack[],
  repository: string,
  environment: string,
): Promise<TrustJudgement> {
  const refusals: string[] = [];
  let runsJudged = 0;
  for (const role of githubTrustingRoles(stacks)) {
    const kind = githubRoleKind(role.resource.logicalId);
    for (const { run, mayAssume } of workflowRuns(repository, environment)) {
      const { allowed } = await judgeRun(role, run);
      runsJudged += 1;
      const must = kind !== undefined && mayAssume === kind;
      if (allowed === must) continue;
      if (!allowed) {
        refusals.push(`${role.resource.logicalId}: ${run.description} may not assume it, and must`);
        continue;
      }
      const statements = await allowingStatements(role, (single) => judgeRun(single, run));
      refusals.push(
        `${role.resource.logicalId}: ${run.description} may assume it (${statements}), and must not` +
          (kind === undefined ? ': a role that trusts GitHub with no expectation' : ''),
      );
    }
  }
  return { runsJudged, refusals };
}

/** Which trust statements alone let the request through, named by index. */
async function allowingStatements(
  role: RoleView,
  allows: (single: RoleView) => Promise<{ allowed: boolean }>,
): Promise<string> {
  const indices: number[] = [];
  for (const [index, statement] of role.trustPolicy.Statement.entries()) {
    if (statement.Effect !== 'Allow') continue;
    const single = { ...role, trustPolicy: { Version: '2012-10-17' as const, Statement: [statement] } };
    if ((await allows(single)).allowed) indices.push(index);
  }
  return `trust policy statement ${indices.join(', ') || '?'}`;
}

/** An administrator of `account` asking to assume `role`, with or without MFA. */
async function administratorMayAssume(role: RoleView, account: string, withMfa: boolean): Promise<boolean> {
  const administrator = `arn:aws:iam::${account}:role/Administrator`;
  const judgement = await judge(
    {
      principal: administrator,
      action: 'sts:AssumeRole',
      resource: role.arn,
      resourceAccount: role.resource.stack.account,
      context: { 'aws:MultiFactorAuthPresent': withMfa ? 'true' : 'false' },
    },
    {
      identity: [
        {
          name: 'AdministratorAccess',
          policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] },
        },
      ],
      resource: role.trustPolicy,
    },
  );
  return judgement.allowed;
}

/** Every role's AWS and service principals against its expectation; the break-glass role judged with and without MFA. */
export async function judgeAccountTrusts(stacks: readonly DeployedStack[]): Promise<TrustJudgement> {
  const refusals: string[] = [];
  let runsJudged = 0;
  const roles = rolesOf(stacks);
  const operatorArns = new Set(roles.filter(isOperatorRole).map((role) => role.arn));
  for (const role of roles) {
    const id = role.resource.logicalId;
    const account = role.resource.stack.account;
    for (const [index, statement] of role.trustPolicy.Statement.entries()) {
      if (statement.Effect !== 'Allow') continue;
      for (const service of principalsOf(statement, 'Service')) {
        if (!expectedServicePrincipals.includes(service))
          refusals.push(`${id}: trust policy statement ${index} admits the service ${service}, beyond its expectation`);
      }
      for (const principal of principalsOf(statement, 'AWS')) {
        if (isSendFunctionRole(role) && operatorArns.has(principal)) continue;
        if (isBreakGlassRole(role) && principal === `arn:aws:iam::${account}:root`) continue;
        refusals.push(`${id}: trust policy statement ${index} admits ${principal}, beyond its expectation`);
      }
    }
    if (!isBreakGlassRole(role)) continue;
    const verdicts = [
      { who: 'an administrator of its account with MFA', account, withMfa: true, must: true },
      { who: 'an administrator of its account without MFA', account, withMfa: false, must: false },
      { who: "another account's administrator with MFA", account: '999999999999', withMfa: true, must: false },
    ];
    for (const verdict of verdicts) {
      runsJudged += 1;
      const allowed = await administratorMayAssume(role, verdict.account, verdict.withMfa);
      if (allowed !== verdict.must)
        refusals.push(
          `${id}: ${verdict.who} ${allowed ? 'may' : 'may not'} assume it, and ${verdict.must ? 'must' : 'must not'}`,
        );
    }
  }
  return { runsJudged, refusals };
}
