/**
 * `npm run rehearse [-- -c KEY=VALUE …]`: synthesizes every stack of the stage (`cdk synth`, as
 * `npm run synth` does, with the functions' bundles, into a temporary folder), runs every
 * function from its bundle through the scenarios on the local twin (local/rehearsal/), and judges
 * each recorded call, every service-to-service edge and the deploy identity against the templates'
 * own policies (infra/tools/rehearsal/). Exit 0 only when every call and edge is allowed, each
 * function is refused the others' calls, every used statement is needed, every unused grant has a
 * written reason, no resource policy admits more than its expectation, and every role is trusted
 * by exactly its expectation (rehearsal.ts); 1 naming each refusal.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readDeployedStacks } from '../infra/tools/rehearsal/deployed-stacks';
import { rehearse } from '../infra/tools/rehearsal/rehearsal';
import { rehearsalCast } from '../infra/tools/rehearsal/deployed-functions';
import { judgeFunctionCalls, othersCallsAllowed, unusedGrants } from '../infra/tools/rehearsal/function-calls';
import { unexplainedGrants } from '../infra/tools/rehearsal/grant-expectations';
import { removeEachStatement } from '../infra/tools/rehearsal/statement-mutations';
import { recordRehearsal } from '../local/rehearsal/rehearsal-run';
import { runOpsScenarios } from '../ops/rehearsal/ops-scenarios';

const args = process.argv.slice(2);
const contextValue = (key: string): string | undefined => {
  for (let index = 0; index < args.length; index += 1) {
    const inline = new RegExp(`^(?:-c|--context)=?${key}=(.*)$`).exec(args[index]);
    if (inline) return inline[1];
    if ((args[index] === '-c' || args[index] === '--context') && args[index + 1]?.startsWith(`${key}=`))
      return args[index + 1].slice(key.length + 1);
  }
  return undefined;
};
const stage = contextValue('stage');
const exampleSender = stage || contextValue('senderEmail') ? [] : ['-c', 'senderEmail=cheatsheet@example.com'];
const outdir = mkdtempSync(path.join(tmpdir(), 'rehearsal-'));
const region = process.env.AWS_REGION ?? 'us-east-1';
try {
  const synth = spawnSync('npx', ['cdk', 'synth', '--quiet', '--output', outdir, ...exampleSender, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, AWS_REGION: region, CDK_DEFAULT_REGION: process.env.CDK_DEFAULT_REGION ?? region },
  });
  if (synth.status !== 0) process.exit(synth.status ?? 1);
  const stacks = readDeployedStacks(outdir, { region });
  const report = await rehearse(stacks, contextValue('githubRepository'), stage);
  // The same wiring as test/infra/support/function-rehearsal.ts (a script may not be imported, nor a test).
  const cast = rehearsalCast(stacks);
  const run = await recordRehearsal(cast.functions, cast.deployment, (twin, eraseAddress) =>
    runOpsScenarios({
      ...cast.ops,
      endpoint: twin.endpoint,
      scenario: (name) => twin.recorder.scenario(name),
      sendStepEnvironment: { DNS_SERVERS: twin.dnsServers },
      eraseAddress,
      preflightArguments: [...exampleSender, ...args],
      firstDeploy: (on) => twin.controlPlane.firstDeploy(on),
    }),
  );
  const { functions, callers } = cast;
  const scenarios = run.scenarios;
  const ops = run.after;
  const calls = await judgeFunctionCalls(stacks, callers, run.calls);
  const unused = await unusedGrants(stacks, callers, calls.judged);
  const othersAllowed = await othersCallsAllowed(stacks, functions, calls.judged);
  const mutations = await removeEachStatement(stacks, callers, calls.judged);
  const redundant = mutations.survivors.filter((survivor) => !survivor.includes('no call uses it'));
  console.log(
    `Rehearsal of ${stacks.map((stack) => `${stack.name} (${stack.region})`).join(', ')}: ` +
      `${scenarios.filter((scenario) => !scenario.skipped).length} scenarios ran ${functions.length} functions from their bundles, ` +
      `${ops.filter((scenario) => !scenario.skipped).length} ops commands ran as the roles the docs name (with --stack; the preflight as before the first deploy); ` +
      `${calls.callsRecorded} calls recorded, ${calls.requestsJudged} requests judged (the KMS calls they imply and Lambda's own included), ` +
      `${report.edgesJudged} service edges and ${report.negativeEdgesJudged} of their negatives, ` +
      `${report.resourcePrincipalsJudged} resource-policy principals and ${report.identityRunsJudged} identities' trusts judged (GitHub runs, break glass); ` +
      `${unused.length} grants unused; ${mutations.mutations} statements removed in turn, ${mutations.needed} needed.`,
  );
  for (const scenario of [...scenarios, ...ops])
    if (scenario.skipped) console.log(`Skipped: ${scenario.name}: ${scenario.skipped}`);
  for (const scenario of ops)
    if (scenario.notJudged) console.log(`Not judged: ${scenario.name}: ${scenario.notJudged}`);
  for (const grant of unused) console.log(`Unused grant: ${grant}`);
  const failures = [
    ...scenarios.flatMap((scenario) => (scenario.failure ? [`scenario ${scenario.name}: ${scenario.failure}`] : [])),
    ...ops.flatMap((scenario) =>
      scenario.exitCode
        ? [`${scenario.name} exited with ${scenario.exitCode}: ${scenario.output ?? ''}`]
        : scenario.failure
          ? [`${scenario.name}: ${scenario.failure}`]
          : [],
    ),
    ...calls.unreadable.map((call) => `unreadable call ${call}`),
    ...calls.refusals,
    ...report.refusals,
    ...othersAllowed.map((allowed) => `least privilege: ${allowed}`),
    ...redundant.map((survivor) => `a statement no call needs: ${survivor}`),
    ...unexplainedGrants(unused).map((grant) => `a grant no scenario uses and no written reason allows: ${grant}`),
  ];
  for (const failure of failures) console.error(`REFUSED ${failure}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
