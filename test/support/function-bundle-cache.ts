/**
 * The functions' bundles, built once per jest run and shared by the test files that synthesize
 * with bundling (the bundle budget's test, the rehearsal's function calls, the cold-start
 * measurement): esbuild is most of each such file's time, and its output depends only on the
 * handler's file and the repository, which one run does not change. The first file to need a
 * function's bundle builds it with infra/function-bundle.ts and keeps a copy in the run's
 * temporary directory; another file copies it, or waits for the one building it. Outside a jest
 * run (no run directory) every call bundles, as the app does.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FunctionBundleInput } from '../../infra/function-bundle';
import { runTemporaryDirectoryVariable } from './temporary-directory-setup';

/** The cache's folder in the run's temporary directory, removed by the run's teardown. */
export const functionBundleCacheFolder = 'function-bundles';

/**
 * How long a file waits for another worker's bundle before it builds its own: one bundle takes a
 * second or two, ten on a loaded machine; a worker that died while bundling leaves its lock behind,
 * and this still leaves the rehearsal's three-minute hook time to bundle.
 */
const waitLimitMs = 30_000;
const complete = '.complete';

/** Blocks the worker for `ms` (bundling is synchronous inside `app.synth()`, so the wait is too). */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export function functionBundleCacheOf(runDirectory: string): string {
  return path.join(runDirectory, functionBundleCacheFolder);
}

/** `bundleFunction`, with each function's bundle built once per run and copied after that. */
export function sharedBundles(
  bundleFunction: (input: FunctionBundleInput) => void,
): (input: FunctionBundleInput) => void {
  return (input) => {
    const runDirectory = process.env[runTemporaryDirectoryVariable];
    if (!runDirectory) return bundleFunction(input);
    const key = createHash('sha256')
      .update(`${input.projectRoot}\0${path.resolve(input.projectRoot, input.entry)}`)
      .digest('hex')
      .slice(0, 16);
    const cached = path.join(functionBundleCacheOf(runDirectory), key);
    const copyOut = () => cpSync(cached, input.outdir, { recursive: true, filter: (file) => !file.endsWith(complete) });
    if (existsSync(path.join(cached, complete))) return copyOut();
    mkdirSync(functionBundleCacheOf(runDirectory), { recursive: true });
    let building = false;
    try {
      // mkdir is atomic: the one worker that creates the lock builds; the others wait for it.
      mkdirSync(`${cached}.lock`);
      building = true;
    } catch {
      const deadline = Date.now() + waitLimitMs;
      while (!existsSync(path.join(cached, complete)) && Date.now() < deadline) pause(50);
      if (existsSync(path.join(cached, complete))) return copyOut();
    }
    try {
      bundleFunction(input);
    } catch (error) {
      // The waiting files then bundle for themselves, and report the same error.
      if (building) rmSync(`${cached}.lock`, { recursive: true, force: true });
      throw error;
    }
    if (!building) return;
    rmSync(cached, { recursive: true, force: true });
    cpSync(input.outdir, cached, { recursive: true });
    writeFileSync(path.join(cached, complete), '');
  };
}
