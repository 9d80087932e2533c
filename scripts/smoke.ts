/** `npm run smoke -- <site URL> [--stack NAME] [--canary]`: checks a running product (ops/smoke/). */
import { runSmokeCommand } from '../ops/smoke/smoke-command';

process.exitCode = await runSmokeCommand(process.argv.slice(2), { print: (text) => console.log(text) });
