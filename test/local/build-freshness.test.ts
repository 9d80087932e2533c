import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildOutput } from '../../core/build-output';
import { buildScriptFor, checkBuild } from '../../local/build-freshness';

let root: string;
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

async function file(relative: string, minutesAgo: number, content = 'export {};\n') {
  const filePath = path.join(root, relative);
  await mkdir(path.dirname(filePath), { recursive: true });
  await writeFile(filePath, content);
  await utimes(filePath, at(minutesAgo), at(minutesAgo));
}

// A miniature repository: real modules, so the check follows real imports.
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'build-freshness-'));
  await file(
    'frontend/src/loader.ts',
    30,
    "import { outline } from '../../core/content/outline';\nimport { limit } from '../../core/api/request-limits';\nexport const page = [outline, limit];\n",
  );
  await file('frontend/src/islands/hydrate-cheat-sheet-form.tsx', 30);
  await file('frontend/src/entry-server.tsx', 30);
  await file('frontend/build/prerender.ts', 30);
  await file('frontend/vite.config.ts', 30);
  await file('frontend/index.html', 30, '<!doctype html>');
  await file('core/content/outline.ts', 30, 'export const outline = 1;\n');
  await file('core/api/request-limits.ts', 30, 'export const limit = 100;\n');
  await file(
    'core/documents/cheat-sheet-pdf.ts',
    30,
    "import { outline } from '../content/outline';\nexport const pdf = outline;\n",
  );
  await file(
    'scripts/build-cheat-sheet-pdf.ts',
    30,
    "import { pdf } from '../core/documents/cheat-sheet-pdf';\nconsole.log(pdf);\n",
  );
  await file('lambdas/runtime/aws-clients.ts', 30, 'export const clients = 1;\n');
  for (const page of buildOutput.pages) await file(`frontend/dist/${page}`, 10);
  await file('dist/cheat-sheet/mpc-100-day-cheat-sheet.pdf', 10);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('checkBuild', () => {
  test('finds nothing to build when every output is newer than its sources', async () => {
    const status = await checkBuild(root);

    expect(status).toEqual({ site: null, pdf: null });
    expect(buildScriptFor(status)).toBeNull();
  });

  test('rebuilds the site when a page is missing', async () => {
    await rm(path.join(root, 'frontend/dist/404.html'));

    const status = await checkBuild(root);

    expect(status.site).toBe(`${path.join('frontend', 'dist', '404.html')} is missing`);
    expect(buildScriptFor(status)).toBe('build:site');
  });

  test('rebuilds the site when a page module changed after the build', async () => {
    await file('frontend/src/loader.ts', 1, "import '../../core/content/outline';\n");

    expect(buildScriptFor(await checkBuild(root))).toBe('build:site');
  });

  test('rebuilds the site when a core module the page imports changed after the build', async () => {
    await file('core/api/request-limits.ts', 1, 'export const limit = 120;\n');

    expect(buildScriptFor(await checkBuild(root))).toBe('build:site');
  });

  test('rebuilds the site when its HTML template changed after the build', async () => {
    await file('frontend/index.html', 1, '<!doctype html><title></title>');

    expect(buildScriptFor(await checkBuild(root))).toBe('build:site');
  });

  test('rebuilds the site when a result page is missing', async () => {
    await rm(path.join(root, 'frontend/dist/cheat-sheet/sent.html'));

    expect((await checkBuild(root)).site).toBe(
      `${path.join('frontend', 'dist', 'cheat-sheet', 'sent.html')} is missing`,
    );
  });

  test('rebuilds the site when the island module changed after the build', async () => {
    await file('frontend/src/islands/hydrate-cheat-sheet-form.tsx', 1, 'export const island = 2;\n');

    expect(buildScriptFor(await checkBuild(root))).toBe('build:site');
  });

  test('ignores modules that neither the site nor the PDF imports', async () => {
    await file('lambdas/runtime/aws-clients.ts', 1, 'export const clients = 2;\n');

    expect(buildScriptFor(await checkBuild(root))).toBeNull();
  });

  test('follows an import added after the build, with no list to update', async () => {
    await file('lambdas/runtime/aws-clients.ts', 1, 'export const clients = 2;\n');
    await file('frontend/src/entry-server.tsx', 30, "import '../../lambdas/runtime/aws-clients';\n");

    expect(buildScriptFor(await checkBuild(root))).toBe('build:site');
  });

  test('rebuilds only the PDF when its builder changed after the build', async () => {
    await file(
      'core/documents/cheat-sheet-pdf.ts',
      1,
      "import { outline } from '../content/outline';\nexport const pdf = [outline];\n",
    );

    expect(buildScriptFor(await checkBuild(root))).toBe('build:pdf');
  });

  test('rebuilds everything when the content both are made from changed', async () => {
    await file('core/content/outline.ts', 1, 'export const outline = 2;\n');

    expect(buildScriptFor(await checkBuild(root))).toBe('build');
  });

  test('ignores the build output and files nothing imports', async () => {
    await file('frontend/dist/assets/new.js', 1);
    await file('frontend/node_modules/x/index.js', 1);

    expect(buildScriptFor(await checkBuild(root))).toBeNull();
  });
});
