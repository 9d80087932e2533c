/**
 * `npm run synth [-- -c stage=NAME …]`: `cdk synth` offline, writing the templates and
 * `cdk.out/audit-report.md`. Without a stage it synthesizes with an example sender
 * (`-c senderEmail=cheatsheet@example.com`); with `-c stage=NAME` it synthesizes that stage with
 * the stage's own values from cdk.json (a `-c senderEmail` would override the stage's sender).
 */
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const givesStage = args.some(
  (arg, index) =>
    /^(--context|-c)=?stage=/.test(arg) ||
    ((arg === '-c' || arg === '--context') && /^stage=/.test(args[index + 1] ?? '')),
);
const exampleSender = givesStage ? [] : ['-c', 'senderEmail=cheatsheet@example.com'];
const result = spawnSync('npx', ['cdk', 'synth', ...exampleSender, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
