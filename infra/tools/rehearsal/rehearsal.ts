/**
 * The rehearsal of a synthesized stage: every service-to-service edge and every role's trust,
 * judged against the templates' own policies (judge.ts). Returns what it judged and every
 * refusal, naming the caller, the action, the resource and what was missing, or the role and the
 * trust statement that admits too much.
 */
import type { DeployedStack } from './deployed-stacks';
import { judge } from './judge';
import { serviceEdges } from './service-edges';
import { judgeAccountTrusts, judgeGitHubTrusts } from './trust-expectations';

export interface RehearsalReport {
  readonly edgesJudged: number;
  /** GitHub runs judged against each role that trusts GitHub, and the break-glass role's principals. */
  readonly identityRunsJudged: number;
  readonly refusals: readonly string[];
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
  const trusts = [
    await judgeAccountTrusts(stacks),
    ...(repository && environment ? [await judgeGitHubTrusts(stacks, repository, environment)] : []),
  ];
  for (const trust of trusts) refusals.push(...trust.refusals);
  return {
    edgesJudged: edges.length,
    identityRunsJudged: trusts.reduce((sum, trust) => sum + trust.runsJudged, 0),
    refusals,
  };
}
