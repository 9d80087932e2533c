/**
 * Temporary folders that tests (and the jest run as a whole) hand to code as its TMPDIR, to see
 * afterwards that it left nothing there.
 *
 * Two tools keep a compile cache in the temporary directory on purpose, across runs: tsx
 * (`<tmpdir>/tsx-<uid>`) and Node's module compile cache, which npm turns on
 * (`<tmpdir>/node-compile-cache`). A fresh folder gets a link to each real one that exists, so
 * scripts stay as fast as usual; a cache is not counted as something left behind (one made
 * inside the fresh folder goes with it).
 */
import { existsSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/** tsx's cache (its client names it `tsx-${geteuid()}`) and Node's compile cache. */
export const machineCaches: readonly string[] = [
  `tsx-${process.geteuid?.() ?? userInfo().username}`,
  'node-compile-cache',
];

/** A new, empty folder under `parent` but for links to the caches `parent` holds. */
export function freshTemporaryDirectory(prefix: string, parent: string = tmpdir()): string {
  const directory = mkdtempSync(path.join(parent, prefix));
  for (const cache of machineCaches) {
    if (existsSync(path.join(parent, cache))) symlinkSync(path.join(parent, cache), path.join(directory, cache));
  }
  return directory;
}

/** What is in a folder of freshTemporaryDirectory() other than the caches. */
export function leftoversIn(directory: string): string[] {
  return readdirSync(directory)
    .filter((entry) => !machineCaches.includes(entry))
    .sort();
}
