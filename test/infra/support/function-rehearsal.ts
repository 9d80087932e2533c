/**
 * The functions of a synthesized stage run from their bundles on the rehearsal's twin, every
 * scenario once (local/rehearsal/), then the leads commands as the roles the docs name
 * (ops/rehearsal/), as `npm run rehearse` runs them: the recorded calls, to judge against the
 * templates, the callers who signed them, and the scenarios' results.
 */
import { leadsRoles, rehearsedFunctions } from '../../../infra/tools/rehearsal/deployed-functions';
import type { DeployedStack } from '../../../infra/tools/rehearsal/deployed-stacks';
import { runFunctionScenarios } from '../../../local/rehearsal/function-scenarios';
import { startRehearsalTwin } from '../../../local/rehearsal/rehearsal-twin';
import { runOpsScenarios } from '../../../ops/rehearsal/ops-scenarios';

/** Who signs the rehearsal's calls: every function, and the leads roles the stage has. */
export function rehearsalCallers(stacks: readonly DeployedStack[]) {
  const roles = leadsRoles(stacks);
  return [
    ...rehearsedFunctions(stacks),
    ...[roles.leadsReader, roles.leadsOperator].flatMap((role) => (role ? [role] : [])),
  ];
}

export async function recordScenarios(stacks: readonly DeployedStack[]) {
  const functions = rehearsedFunctions(stacks);
  const roles = leadsRoles(stacks);
  const send = functions.find((fn) => fn.name === 'sendCheatSheet');
  const twin = await startRehearsalTwin(functions);
  try {
    const scenarios = await runFunctionScenarios(twin);
    const ops = await runOpsScenarios({
      endpoint: twin.endpoint,
      region: functions[0].region,
      scenario: (name) => twin.recorder.scenario(name),
      ...roles,
      ...(send && { sendFunction: { accessKeyId: send.accessKeyId, environment: send.environment } }),
      sendStepEnvironment: { DNS_SERVERS: twin.dnsServers },
      eraseAddress: scenarios.eraseAddress,
    });
    return {
      functions,
      callers: rehearsalCallers(stacks),
      scenarios: scenarios.results,
      ops,
      calls: [...twin.recorder.calls],
    };
  } finally {
    await twin.stop();
  }
}
