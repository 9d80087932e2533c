/**
 * One run of the rehearsal on the twin: the functions from their bundles through every scenario,
 * then what runs against the deployment from outside (the ops commands, given by the caller: the
 * twin may not import them), then the twin stopped. Returns every call recorded.
 */
import type { ControlPlane } from './control-plane';
import { runFunctionScenarios, type ScenarioResult } from './function-scenarios';
import { startRehearsalTwin, type RehearsalTwin, type RehearsedFunction } from './rehearsal-twin';

export interface RehearsalRun<T> {
  readonly scenarios: readonly ScenarioResult[];
  /** What `afterFunctions` returned. */
  readonly after: T;
  readonly calls: RehearsalTwin['recorder']['calls'];
}

export async function recordRehearsal<T>(
  functions: readonly RehearsedFunction[],
  deployment: ControlPlane,
  afterFunctions: (twin: RehearsalTwin, eraseAddress: string) => Promise<T>,
): Promise<RehearsalRun<T>> {
  const twin = await startRehearsalTwin(functions, deployment);
  try {
    const scenarios = await runFunctionScenarios(twin);
    const after = await afterFunctions(twin, scenarios.eraseAddress);
    return { scenarios: scenarios.results, after, calls: [...twin.recorder.calls] };
  } finally {
    await twin.stop();
  }
}
