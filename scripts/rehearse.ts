/**
 * `npm run rehearse [-- -c KEY=VALUE …]`: synthesizes every stack of the stage (`cdk synth`, as
 * `npm run synth` does, into a temporary folder) and judges every service-to-service edge and the
 * deploy identity against the templates' own policies (infra/tools/rehearsal/). Exit 0 only when
 * every edge is allowed and the deploy identity trusts exactly a push to main in the stage's
 * environment; 1 naming each refusal.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readDeployedStacks } from '../infra/tools/rehearsal/deployed-stacks';
import { rehearse } from '../infra/tools/rehearsal/rehearsal';

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
  console.log(
    `Rehearsal of ${stacks.map((stack) => `${stack.name} (${stack.region})`).join(', ')}: ` +
      `${report.edgesJudged} service edges and ${report.identityRunsJudged} deploy-identity runs judged, ` +
      `${report.refusals.length} refused; ${report.unjudged.length} edges not judged (the evaluator cannot read their KMS encryption context).`,
  );
  for (const role of report.otherGitHubRoles) console.log(`Also trusts GitHub (may assume it): ${role}`);
  for (const refusal of report.refusals) console.error(`REFUSED ${refusal}`);
  process.exitCode = report.refusals.length === 0 ? 0 : 1;
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
