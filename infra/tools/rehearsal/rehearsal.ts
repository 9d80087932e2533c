/**
 * The rehearsal of a synthesized stage, judged against the templates' own policies (judge.ts):
 * every service-to-service edge allowed and its negatives (another stack's source, another
 * account's) refused; every principal a resource policy names held to its expectation; no public
 * function able to read the requests in bulk; every role's trust exactly its expectation. Returns what it judged and every
 * refusal, naming the caller, the action, the resource and what was missing, or the role and the
 * trust statement that admits too much.
 */
import type { DeployedStack } from './deployed-stacks';
import { publicFunctionOverreach } from './grant-expectations';
import { judge } from './judge';
import { admittedNegatives } from './negative-edges';
import { judgeResourcePolicies } from './resource-policy-expectations';
import { serviceEdges } from './service-edges';
import { judgeAccountTrusts, judgeGitHubTrusts } from './trust-expectations';

export interface RehearsalReport {
  readonly edgesJudged: number;
  /** Each edge asked again by another stack's source and another account's: each must be refused. */
  readonly negativeEdgesJudged: number;
  /** Each principal a key, topic, queue or bucket policy names, asked with no condition. */
  readonly resourcePrincipalsJudged: number;
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
  const negatives = await admittedNegatives(edges);
  const resourcePolicies = await judgeResourcePolicies(stacks);
  refusals.push(...negatives.refusals, ...resourcePolicies.refusals, ...(await publicFunctionOverreach(stacks)));
  const trusts = [
    await judgeAccountTrusts(stacks),
    ...(repository && environment ? [await judgeGitHubTrusts(stacks, repository, environment)] : []),
  ];
  for (const trust of trusts) refusals.push(...trust.refusals);
  return {
    edgesJudged: edges.length,
    negativeEdgesJudged: negatives.judged,
    resourcePrincipalsJudged: resourcePolicies.judged,
    identityRunsJudged: trusts.reduce((sum, trust) => sum + trust.runsJudged, 0),
    refusals,
  };
}
