/** `npm run digest [-- --to ADDRESS]`: the weekly digest of `npm start`'s twin, now (local/twin-digest.ts). */
import { readPorts } from '../local/ports';
import { runTwinDigestCommand } from '../local/twin-digest';

process.exitCode = await runTwinDigestCommand(process.argv.slice(2), {
  print: (line) => console.log(line),
  printError: (line) => console.error(line),
  ports: readPorts(),
});
