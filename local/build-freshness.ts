/**
 * Whether `npm start` must build first: the pre-rendered pages and the PDF must exist and be
 * newer than every source they are made from. What they are made from is read off their module
 * graphs (esbuild follows every import from the build's entry points, as Vite and tsx will), so
 * a new import anywhere in the graph is watched without anyone listing it; the few inputs that
 * are not modules (the HTML template, the public folder, the content files) are named below.
 */

import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { buildOutput } from '../core/build-output';

export interface BuildStatus {
  /** Why the site must be rebuilt, or null if it is up to date. */
  readonly site: string | null;
  /** Why the PDF must be rebuilt, or null if it is up to date. */
  readonly pdf: string | null;
}

interface BuildInputs {
  /** Modules whose whole import graph (project files only) the output is built from. */
  readonly entryPoints: readonly string[];
  /** Files or folders read by the build that no module imports. */
  readonly otherInputs: readonly string[];
  readonly outputs: readonly string[];
}

/** Relative to the repository root. */
export const buildInputs: { readonly site: BuildInputs; readonly pdf: BuildInputs } = {
  site: {
    entryPoints: [
      'frontend/src/loader.ts',
      'frontend/src/islands/hydrate-cheat-sheet-form.tsx',
      'frontend/src/entry-server.tsx',
      'frontend/build/prerender.ts',
      'frontend/vite.config.ts',
    ],
    // The content files: the build turns them into core/content/generated/ first.
    otherInputs: ['frontend/index.html', 'frontend/public', 'content'],
    outputs: buildOutput.pages.map((page) => `${buildOutput.siteDirectory}/${page}`),
  },
  pdf: {
    entryPoints: ['scripts/build-cheat-sheet-pdf.ts'],
    otherInputs: ['content'],
    outputs: [`${buildOutput.cheatSheetDirectory}/${buildOutput.cheatSheetFile}`],
  },
};

/** Every project file the entry points import, directly or not (npm packages excluded). */
export async function moduleGraph(root: string, entryPoints: readonly string[]): Promise<string[]> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [...entryPoints],
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    outdir: 'out',
    logLevel: 'silent',
    // Assets a module imports count as inputs; their content does not matter here.
    loader: { '.svg': 'empty', '.png': 'empty', '.woff2': 'empty' },
  });
  return Object.keys(result.metafile.inputs).map((input) => path.join(root, input));
}

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
    if (entry.name.startsWith('.')) continue;
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

async function staleness(inputs: BuildInputs, root: string): Promise<string | null> {
  const sources = [
    ...(await moduleGraph(root, inputs.entryPoints)),
    ...inputs.otherInputs.map((input) => path.join(root, input)),
  ];
  const newestSource = Math.max(0, ...(await Promise.all(sources.map(newestModification))));
  for (const output of inputs.outputs) {
    const built = await modification(path.join(root, output));
    if (built === null) return `${path.normalize(output)} is missing`;
    if (built < newestSource) return `${path.normalize(output)} is older than its sources`;
  }
  return null;
}

export async function checkBuild(root: string = process.cwd()): Promise<BuildStatus> {
  return { site: await staleness(buildInputs.site, root), pdf: await staleness(buildInputs.pdf, root) };
}

/** The npm script that brings the build up to date, or null if nothing is stale. */
export function buildScriptFor(status: BuildStatus): string | null {
  if (status.site && status.pdf) return 'build';
  if (status.site) return 'build:site';
  if (status.pdf) return 'build:pdf';
  return null;
}
