import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildScriptFor, checkBuild } from '../../local/build-freshness';

let root: string;
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

async function file(relative: string, minutesAgo: number) {
  const filePath = path.join(root, relative);
  await mkdir(path.dirname(filePath), { recursive: true });
  await writeFile(filePath, relative);
  await utimes(filePath, at(minutesAgo), at(minutesAgo));
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'build-freshness-'));
  await file('frontend/src/App.tsx', 30);
  await file('frontend/src/content/outline.ts', 30);
  await file('scripts/cheat-sheet-pdf.ts', 30);
  await file('lambdas/shared/request-limits.ts', 30);
  await file('lambdas/shared/aws-clients.ts', 30);
  await file('frontend/dist/index.html', 10);
  await file('frontend/dist/404.html', 10);
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

  test('rebuilds the site when a frontend source changed after the build', async () => {
    await file('frontend/src/App.tsx', 1);

    expect(buildScriptFor(await checkBuild(root))).toBe('build:site');
  });

  test("rebuilds the site when the request limits the page's form imports changed after the build", async () => {
    await file('lambdas/shared/request-limits.ts', 1);

    expect(buildScriptFor(await checkBuild(root))).toBe('build:site');
  });

  test('ignores the other back-end modules, which the site does not import', async () => {
    await file('lambdas/shared/aws-clients.ts', 1);

    expect(buildScriptFor(await checkBuild(root))).toBeNull();
  });

  test('rebuilds only the PDF when a script changed after the build', async () => {
    await file('scripts/cheat-sheet-pdf.ts', 1);

    expect(buildScriptFor(await checkBuild(root))).toBe('build:pdf');
  });

  test('rebuilds everything when the content both are made from changed', async () => {
    await file('frontend/src/content/outline.ts', 1);

    expect(buildScriptFor(await checkBuild(root))).toBe('build');
  });

  test('ignores the build output and node_modules under frontend/', async () => {
    await file('frontend/dist/assets/new.js', 1);
    await file('frontend/node_modules/x/index.js', 1);

    expect(buildScriptFor(await checkBuild(root))).toBeNull();
  });
});
