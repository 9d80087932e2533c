/**
 * `npm start`: builds what is out of date, starts the local stack on the ports from PORT,
 * MAIL_PORT, DYNAMODB_PORT and S3_PORT, prints the contract's four endpoint lines, and stops
 * everything on Ctrl-C or SIGTERM. SKIP_BUILD=1 serves whatever is built.
 *
 * The signal handlers come first: everything else is imported after them, so a signal while
 * the product's modules load (a second or more) still exits 0 (local/shutdown.ts).
 */

import { stopOnSignals } from './shutdown';

const shutdown = stopOnSignals();
console.error('Starting the local product (Ctrl-C stops it)…');

const { endpointLines, InvalidPortError, readPorts } = await import('./ports');
// A port variable that is not a port is answered before the product's modules load.
let ports: ReturnType<typeof readPorts>;
try {
  ports = readPorts();
} catch (error) {
  if (!(error instanceof InvalidPortError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const { spawnSync } = await import('node:child_process');
const { buildScriptFor, checkBuild } = await import('./build-freshness');
const { LocalStackPortInUseError, startLocalStack } = await import('./local-stack');

async function buildIfStale(): Promise<void> {
  if (process.env.SKIP_BUILD === '1') return;
  const status = await checkBuild();
  const script = buildScriptFor(status);
  if (!script) return;
  console.error(`Building (${[status.site, status.pdf].filter(Boolean).join('; ')}): npm run ${script}`);
  // Build output goes to stderr so stdout carries only the endpoint lines and the functions' logs.
  // npm start serves the production build: an inherited NODE_ENV (test runners set `test`) would
  // make Vite bundle React's development build, three times the island's size.
  const build = spawnSync('npm', ['run', script], {
    stdio: ['ignore', 2, 2],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) {
    console.error(`npm run ${script} failed; fix the build, or start with SKIP_BUILD=1 to serve what is built.`);
    process.exit(1);
  }
}

try {
  await buildIfStale();
  const stack = await shutdown.start(
    () => startLocalStack({ ports }),
    (started) => started.stop(),
  );
  for (const line of endpointLines(stack.ports)) console.log(line);
} catch (error) {
  if (error instanceof LocalStackPortInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
