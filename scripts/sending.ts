/** `npm run sending -- status|pause|resume --stack NAME` (ops/sending/). */
import { runSendingCommand } from '../ops/sending/sending-command';

process.exitCode = await runSendingCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  stderr: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
});
