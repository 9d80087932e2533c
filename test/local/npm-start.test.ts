/**
 * `npm start` through npm itself: a SIGTERM sent to npm's own process (as a process manager or
 * CI sends it) must stop the whole product, not just npm.
 */
import { spawn } from 'node:child_process';
import { isListening } from './support/ports';
import { freePorts } from '../support/spawned-script';

jest.setTimeout(90_000);

test('SIGTERM to the npm start process stops every server it started', async () => {
  const npm = spawn('npm', ['start'], {
    cwd: process.cwd(),
    env: { ...process.env, ...freePorts, SKIP_BUILD: '1', POWERTOOLS_LOG_LEVEL: 'SILENT' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | string | null>((resolve) =>
    npm.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  try {
    const deadline = Date.now() + 45_000;
    while (!/^S3:\s+\S+$/m.test(output)) {
      if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm start printed no endpoints:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ports = [...output.matchAll(/^(?:Site|Mail|DynamoDB|S3):\s+(\S+)$/gm)].map((match) =>
      Number(new URL(match[1]!).port),
    );
    expect(ports).toHaveLength(4);

    npm.kill('SIGTERM');
    await exited;

    // The servers close as the product shuts down; give them a moment after npm itself exits.
    const closedBy = Date.now() + 10_000;
    let stillOpen = ports;
    while (stillOpen.length > 0 && Date.now() < closedBy) {
      stillOpen = (await Promise.all(ports.map(async (port) => ((await isListening(port)) ? [port] : [])))).flat();
      if (stillOpen.length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stillOpen).toEqual([]);
  } finally {
    npm.kill('SIGKILL');
  }
});
