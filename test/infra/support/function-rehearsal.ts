/**
 * The functions of a synthesized stage run from their bundles on the rehearsal's twin, every
 * scenario once (local/rehearsal/), as `npm run rehearse` runs them: the recorded calls, to judge
 * against the templates, and the scenarios' results.
 */
import { rehearsedFunctions } from '../../../infra/tools/rehearsal/deployed-functions';
import type { DeployedStack } from '../../../infra/tools/rehearsal/deployed-stacks';
import { runFunctionScenarios } from '../../../local/rehearsal/function-scenarios';
import { startRehearsalTwin } from '../../../local/rehearsal/rehearsal-twin';

export async function recordScenarios(stacks: readonly DeployedStack[]) {
  const functions = rehearsedFunctions(stacks);
  const twin = await startRehearsalTwin(functions);
  try {
    const scenarios = await runFunctionScenarios(twin);
    return { functions, scenarios, calls: [...twin.recorder.calls] };
  } finally {
    await twin.stop();
  }
}
