/**
 * The rehearsal of a synthesized stage: every service-to-service edge and the deploy identity,
 * judged against the templates' own policies (judge.ts). Returns what it judged and every
 * refusal, naming the caller, the action, the resource and what was missing.
 */
import type { DeployedStack } from './deployed-stacks';
import { githubTrustingRoles, judgeRun, workflowRuns } from './deploy-identity';
import { judge } from './judge';
import { serviceEdges } from './service-edges';

export interface RehearsalReport {
  readonly edgesJudged: number;
  readonly identityRunsJudged: number;
  readonly refusals: readonly string[];
  /**
   * Other roles that trust GitHub (the leads reader and operator roles of the workflow_dispatch
   * workflows): the runs that may assume each, reported, not yet held to an expectation.
   */
  readonly otherGitHubRoles: readonly string[];
}

export async function rehearse(
  stacks: readonly DeployedStack[],
  repository?: string,
  environment?: string,
): Promise<RehearsalReport> {
  const refusals: string[] = [];
  const edges = serviceEdges(stacks);
  for (const edge of edges) {
    const judgement = await judge(edge.request, edge.policies);
    if (!judgement.allowed) {
      refusals.push(
        `${edge.description}: ${edge.request.principal} may not ${edge.request.action} on ${edge.request.resource} (missing ${judgement.missing.join('; ') || judgement.decision})`,
      );
    }
  }
  let identityRunsJudged = 0;
  const otherGitHubRoles: string[] = [];
  if (repository && environment) {
    const roles = githubTrustingRoles(stacks);
    for (const role of roles) {
      if (!/DeployRole|DiffRole/.test(role.resource.logicalId)) {
        const allowedRuns: string[] = [];
        for (const { run } of workflowRuns(repository, environment)) {
          if ((await judgeRun(role, run)).allowed) allowedRuns.push(run.description);
        }
        otherGitHubRoles.push(`${role.resource.logicalId}: ${allowedRuns.join('; ') || 'no run'}`);
        continue;
      }
      const kind = role.resource.logicalId.includes('DiffRole') ? 'diffs' : 'deploys';
      for (const expectation of workflowRuns(repository, environment)) {
        const { allowed } = await judgeRun(role, expectation.run);
        identityRunsJudged += 1;
        if (allowed !== expectation[kind]) {
          refusals.push(
            `${role.resource.logicalId}: ${expectation.run.description} ${allowed ? 'may' : 'may not'} assume it, and ${expectation[kind] ? 'must' : 'must not'}`,
          );
        }
      }
    }
  }
  return {
    edgesJudged: edges.length,
    identityRunsJudged,
    refusals,
    otherGitHubRoles,
  };
}
