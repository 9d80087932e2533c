/**
 * `npm start` and `npm run dev` stop cleanly on a signal at any moment of their lives: exit 0,
 * no process left in their process group, nothing left in their temporary directory.
 *
 * The earliest moment is their first line ("Starting…", on stderr), printed right after the
 * handlers are in place and before the product's modules load; before that Node itself is still
 * booting (about 30 ms), and a signal then ends it as it ends any program.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { freePorts, tsxLoader } from '../support/spawned-script';
import { freshTemporaryDirectory, leftoversIn } from '../support/temporary-directory';

jest.setTimeout(60_000);

interface Watched {
  readonly child: ChildProcess;
  readonly temporaryDirectory: string;
  readonly exited: Promise<number | string | null>;
  output(): { stdout: string; stderr: string };
  /** Resolves once `pattern` appears in stdout or stderr. */
  printed(pattern: RegExp): Promise<void>;
}

const running: Watched[] = [];

/** The entry as its npm script runs it, in a process group of its own and with its own TMPDIR. */
function launch(entry: string): Watched {
  const temporaryDirectory = freshTemporaryDirectory('stop-on-signal-');
  const child = spawn(process.execPath, ['--import', tsxLoader, entry], {
    cwd: process.cwd(),
    env: { ...process.env, ...freePorts, SKIP_BUILD: '1', POWERTOOLS_LOG_LEVEL: 'SILENT', TMPDIR: temporaryDirectory },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const printed = async (pattern: RegExp) => {
    const deadline = Date.now() + 45_000;
    while (!pattern.test(stdout) && !pattern.test(stderr)) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`${entry} did not print ${pattern}:\n${stdout}\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const watched = { child, temporaryDirectory, exited, output: () => ({ stdout, stderr }), printed };
  running.push(watched);
  return watched;
}

/** Whether any process is left in the group the entry led. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function groupGone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return !groupAlive(pid);
}

afterEach(() => {
  for (const { child, temporaryDirectory } of running.splice(0)) {
    if (child.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
    rmSync(temporaryDirectory, { recursive: true, force: true });
  }
});

const startingLine = /^Starting the local product/m;
const lastEndpointLine = /^S3: +http:\/\/localhost:\d+$/m;

/** Each moment: what to wait for after the first line before the signal is sent. */
const moments: ReadonlyArray<[string, (product: Watched) => Promise<void>]> = [
  ['on its first line, before the product loads', async () => {}],
  ['while its modules load (50 ms later)', () => new Promise((resolve) => setTimeout(resolve, 50))],
  ['while the emulators start (400 ms later)', () => new Promise((resolve) => setTimeout(resolve, 400))],
  ['right after it printed its endpoints', (product) => product.printed(lastEndpointLine)],
];

/** `npm run dev` adds Vite after the same stack: its own moments are before and during its steps. */
const entries: ReadonlyArray<[string, string, typeof moments]> = [
  ['npm start', 'local/start.ts', moments],
  ['npm run dev', 'local/dev.ts', [moments[0]!, moments[2]!]],
];

describe.each(entries)('%s', (_name, entry, itsMoments) => {
  test.each(itsMoments)('exits 0 on SIGTERM %s, leaving no process and no temporary file', async (_moment, wait) => {
    const product = launch(entry);
    await product.printed(startingLine);
    await wait(product);

    product.child.kill('SIGTERM');

    expect({ exit: await product.exited, ...product.output() }).toEqual(
      expect.objectContaining({ exit: 0, stderr: expect.not.stringContaining('While stopping') }),
    );
    expect(await groupGone(product.child.pid!)).toBe(true);
    expect(leftoversIn(product.temporaryDirectory)).toEqual([]);
  });
});
