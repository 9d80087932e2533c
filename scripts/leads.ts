/** `npm run leads -- export [--out FILE] | erase <email> [--yes]`, optionally `--stack NAME` (ops/leads/). */
import { runLeadsCommand } from '../ops/leads/leads-command';

process.exitCode = await runLeadsCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  stderr: (text) => process.stderr.write(text.endsWith('\n') || text.endsWith(' ') ? text : `${text}\n`),
  stdin: process.stdin,
  env: process.env,
});
