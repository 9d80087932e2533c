/**
 * Runs one of the scripts (`local/start.ts`, `scripts/leads.ts export`...) and watches it, in one
 * Node process with tsx's ES module loader, as `npm start` and `npm run dev` run theirs
 * (`node --import tsx/esm`): a signal sent to `child` reaches the script itself, with no tsx parent
 * relaying it (that relay gives up after 30 ms on a busy machine and exits 143). The scripts are
 * ES modules, so tsx's CommonJS hook (the `tsx` command adds it) would only parse the
 * dependencies' CommonJS files again: about a fifth of a start's CPU.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface SpawnedScript {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the stdout lines once `count` lines are printed; rejects if it exits first or times out. */
  lines(count: number, timeoutMs?: number): Promise<string[]>;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string | null>;
}

/** tsx's ES module loader by its file: found from any working directory, not only the repository's. */
export const tsxLoader = pathToFileURL(path.join(process.cwd(), 'node_modules/tsx/dist/esm/index.mjs')).href;

/** `cwd`: where the script runs (a copy of the repository's files); the script's path is the repository's. */
export function spawnScript(
  script: string,
  env: Record<string, string>,
  args: readonly string[] = [],
  { cwd = process.cwd() }: { readonly cwd?: string } = {},
): SpawnedScript {
  const child = spawn(process.execPath, ['--import', tsxLoader, path.resolve(script), ...args], {
    cwd,
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );

  const lines = async (count: number, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const printed = stdout.split('\n').filter((line) => line !== '');
      if (printed.length >= count) return printed;
      if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${stdout}\n${stderr}`);
      if (Date.now() > deadline) throw new Error(`${script} printed no ${count} lines in time:\n${stdout}\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  return { child, stdout: () => stdout, stderr: () => stderr, lines, exited };
}

export const freePorts = { PORT: '0', MAIL_PORT: '0', DYNAMODB_PORT: '0', S3_PORT: '0' };
