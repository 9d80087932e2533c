/**
 * Whether `npm start` must build first: the pre-rendered pages and the PDF must exist and be
 * newer than every source they are made from. The page's sources are frontend/ and the one
 * back-end module it imports, lambdas/shared/request-limits.ts (the form's length limits).
 */

import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { cheatSheetPdfPath } from '../scripts/cheat-sheet-pdf';

export interface BuildStatus {
  /** Why the site must be rebuilt, or null if it is up to date. */
  readonly site: string | null;
  /** Why the PDF must be rebuilt, or null if it is up to date. */
  readonly pdf: string | null;
}

const ignoredDirectories = new Set(['node_modules', 'dist']);

/** The newest modification time of a file, or of the files under a directory (0 if there are none). */
export async function newestModification(source: string): Promise<number> {
  let newest = 0;
  let entries;
  try {
    const stats = await stat(source);
    if (stats.isFile()) return stats.mtimeMs;
    entries = await readdir(source, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || ignoredDirectories.has(entry.name)) continue;
    const entryPath = path.join(source, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestModification(entryPath));
    else if (entry.isFile()) newest = Math.max(newest, (await stat(entryPath)).mtimeMs);
  }
  return newest;
}

async function modification(filePath: string): Promise<number | null> {
  try {
    return (await stat(filePath)).mtimeMs;
  } catch {
    return null;
  }
}

async function staleness(outputs: readonly string[], sources: readonly string[], root: string) {
  const newestSource = Math.max(0, ...(await Promise.all(sources.map(newestModification))));
  for (const output of outputs) {
    const built = await modification(output);
    if (built === null) return `${path.relative(root, output)} is missing`;
    if (built < newestSource) return `${path.relative(root, output)} is older than its sources`;
  }
  return null;
}

export async function checkBuild(root: string = process.cwd()): Promise<BuildStatus> {
  const frontend = path.join(root, 'frontend');
  return {
    site: await staleness(
      [path.join(frontend, 'dist', 'index.html'), path.join(frontend, 'dist', '404.html')],
      [frontend, path.join(root, 'lambdas', 'shared', 'request-limits.ts')],
      root,
    ),
    pdf: await staleness([cheatSheetPdfPath(root)], [path.join(root, 'scripts'), path.join(frontend, 'src', 'content')], root),
  };
}

/** The npm script that brings the build up to date, or null if nothing is stale. */
export function buildScriptFor(status: BuildStatus): string | null {
  if (status.site && status.pdf) return 'build';
  if (status.site) return 'build:site';
  if (status.pdf) return 'build:pdf';
  return null;
}
