/**
 * jest's global teardown for the whole run: the run's temporary directory (see
 * temporary-directory-setup.ts) must be as the set-up left it. It is removed either way; what a
 * test left there fails the run, named, so the test that wrote it can be made to clean up.
 */
import { rmSync } from 'node:fs';
import { functionBundleCacheOf } from './function-bundle-cache';
import { leftoversIn } from './temporary-directory';
import { machineTemporaryDirectoryVariable, runTemporaryDirectoryVariable } from './temporary-directory-setup';

/** Removes the run's folder; throws naming what the tests left in it. */
export function removeRunTemporaryDirectory(directory: string): void {
  const leftovers = leftoversIn(directory);
  rmSync(directory, { recursive: true, force: true });
  if (leftovers.length > 0) {
    throw new Error(
      `The tests left ${leftovers.length} entries in the temporary directory (removed now): ${leftovers.join(', ')}`,
    );
  }
}

export default function checkRunTemporaryDirectory(): void {
  const directory = process.env[runTemporaryDirectoryVariable];
  if (!directory) return;
  process.env.TMPDIR = process.env[machineTemporaryDirectoryVariable];
  delete process.env[runTemporaryDirectoryVariable];
  // The run's own cache of the functions' bundles is no test's leftover (function-bundle-cache.ts).
  rmSync(functionBundleCacheOf(directory), { recursive: true, force: true });
  removeRunTemporaryDirectory(directory);
}
