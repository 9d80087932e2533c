/**
 * The functions of a synthesized stage run from their bundles on the rehearsal's twin, every
 * scenario once (local/rehearsal/), then the ops commands with `--stack` as the roles the docs name
 * (ops/rehearsal/), as `npm run rehearse` runs them: the recorded calls, to judge against the
 * templates, the callers who signed them, and the scenarios' results.
 */
import { rehearsalCast } from '../../../infra/tools/rehearsal/deployed-functions';
import type { DeployedStack } from '../../../infra/tools/rehearsal/deployed-stacks';
import { recordRehearsal } from '../../../local/rehearsal/rehearsal-run';
import { runOpsScenarios } from '../../../ops/rehearsal/ops-scenarios';

/** Who signs the rehearsal's calls: every function, the leads roles the stage has, CDK's lookup role. */
export const rehearsalCallers = (stacks: readonly DeployedStack[]) => rehearsalCast(stacks).callers;

/** `preflightArguments`: the `-c` values the stage was synthesized with, which the preflight reads. */
export async function recordScenarios(stacks: readonly DeployedStack[], preflightArguments: readonly string[]) {
  const cast = rehearsalCast(stacks);
  const run = await recordRehearsal(cast.functions, cast.deployment, (twin, eraseAddress) =>
    runOpsScenarios({
      ...cast.ops,
      endpoint: twin.endpoint,
      scenario: (name) => twin.recorder.scenario(name),
      sendStepEnvironment: { DNS_SERVERS: twin.dnsServers },
      eraseAddress,
      preflightArguments,
      firstDeploy: (on) => twin.controlPlane.firstDeploy(on),
    }),
  );
  return {
    functions: cast.functions,
    callers: cast.callers,
    scenarios: run.scenarios,
    ops: run.after,
    calls: run.calls,
  };
}
