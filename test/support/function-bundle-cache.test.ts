/** The run's shared function bundles (function-bundle-cache.ts), with a stand-in for esbuild that counts its calls. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FunctionBundleInput } from '../../infra/function-bundle';
import { sharedBundles } from './function-bundle-cache';
import { runTemporaryDirectoryVariable } from './temporary-directory-setup';

let scratch: string;
const runDirectory = process.env[runTemporaryDirectoryVariable];
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'bundle-cache-'));
  process.env[runTemporaryDirectoryVariable] = path.join(scratch, 'run');
  mkdirSync(path.join(scratch, 'run'));
});
afterEach(() => {
  process.env[runTemporaryDirectoryVariable] = runDirectory;
  rmSync(scratch, { recursive: true, force: true });
});

/** A bundler that writes the entry's name and how many bundles it has made so far. */
function countingBundler() {
  const calls: string[] = [];
  const bundle = (input: FunctionBundleInput) => {
    calls.push(input.entry);
    mkdirSync(path.join(input.outdir, 'chunks'), { recursive: true });
    writeFileSync(path.join(input.outdir, 'index.mjs'), `${input.entry} #${calls.length}`);
    writeFileSync(path.join(input.outdir, 'chunks', 'sso.mjs'), 'chunk');
  };
  return { calls, bundle };
}
const input = (entry: string, outdir: string) => ({ entry, outdir: path.join(scratch, outdir), projectRoot: scratch });

test("bundles a function once per run: a later synth gets a copy of the first one's files", () => {
  const { calls, bundle } = countingBundler();
  const shared = sharedBundles(bundle);

  shared(input('lambdas/save/handler.ts', 'first'));
  shared(input('lambdas/save/handler.ts', 'second'));

  expect(calls).toEqual(['lambdas/save/handler.ts']);
  expect(readdirSync(path.join(scratch, 'second')).sort()).toEqual(['chunks', 'index.mjs']);
  expect(readFileSync(path.join(scratch, 'second', 'index.mjs'), 'utf8')).toBe('lambdas/save/handler.ts #1');
});

test('bundles each function of its own', () => {
  const { calls, bundle } = countingBundler();
  const shared = sharedBundles(bundle);

  shared(input('lambdas/save/handler.ts', 'save'));
  shared(input('lambdas/send/handler.ts', 'send'));

  expect(calls).toEqual(['lambdas/save/handler.ts', 'lambdas/send/handler.ts']);
});

test('outside a jest run, bundles every time, as the app does', () => {
  delete process.env[runTemporaryDirectoryVariable];
  const { calls, bundle } = countingBundler();
  const shared = sharedBundles(bundle);

  shared(input('lambdas/save/handler.ts', 'first'));
  shared(input('lambdas/save/handler.ts', 'second'));

  expect(calls).toHaveLength(2);
});
