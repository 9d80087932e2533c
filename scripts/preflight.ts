/** `npm run preflight -- -c KEY=VALUE …`: read-only checks of the account before a deploy (ops/preflight/). */
import { runPreflightCommand } from '../ops/preflight/preflight-command';

process.exitCode = await runPreflightCommand(process.argv.slice(2), {
  print: (line) => console.log(line),
  printError: (line) => console.error(line),
  cwd: process.cwd(),
});
