import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  initialJavaScriptBudgetBytes,
  islandJavaScriptBudgetBytes,
  pageJavaScript,
} from '../../../frontend/build/initial-javascript';

describe('the JavaScript of / in the build', () => {
  const measured = pageJavaScript(path.join(process.cwd(), 'frontend/dist'));

  test('loads one script before interaction, and it stays within the 5 KB gzip budget', () => {
    expect(measured.initial.scripts).toHaveLength(1);
    expect(measured.initial.gzipBytes).toBeLessThanOrEqual(initialJavaScriptBudgetBytes);
  });

  test('fetches React only with the island, which stays within the 72 KB gzip budget', () => {
    expect(measured.island.scripts.length).toBeGreaterThan(0);
    expect(measured.island.gzipBytes).toBeGreaterThan(30 * 1024); // React is in it, not in the initial script
    expect(islandJavaScriptBudgetBytes).toBe(72 * 1024);
    expect(measured.island.gzipBytes).toBeLessThanOrEqual(islandJavaScriptBudgetBytes);
  });

  test('the not-found page loads the same script and nothing more', () => {
    const notFound = pageJavaScript(path.join(process.cwd(), 'frontend/dist'), '404.html');
    expect(notFound.initial.scripts.map((script) => script.file)).toEqual(
      measured.initial.scripts.map((script) => script.file),
    );
  });
});

describe('pageJavaScript', () => {
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'page-javascript-'));
    const files: Record<string, string> = {
      'index.html':
        '<script type="module" src="/assets/entry.js"></script><link rel="modulepreload" href="/assets/preloaded.js">',
      'assets/entry.js': 'import { a } from "./shared.js"; import("./island.js").then((m) => m.run(a));',
      'assets/shared.js': 'export const a = 1;',
      'assets/preloaded.js': 'export const p = 2;',
      'assets/island.js': 'import { a } from "./shared.js"; import "./vendor.js"; export const run = () => a;',
      'assets/vendor.js': 'export const react = "x".repeat(1000);',
      'assets/unused.js': 'export const never = 3;',
    };
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dist, file)), { recursive: true });
      await writeFile(path.join(dist, file), content);
    }
  });
  afterAll(() => rm(dist, { recursive: true, force: true }));

  test('counts the tagged scripts, the modulepreloads and what they import statically as initial', () => {
    const { initial } = pageJavaScript(dist);
    expect(initial.scripts.map((script) => script.file).sort()).toEqual([
      '/assets/entry.js',
      '/assets/preloaded.js',
      '/assets/shared.js',
    ]);
    expect(initial.gzipBytes).toBe(initial.scripts.reduce((sum, script) => sum + script.gzipBytes, 0));
  });

  test('counts what they import dynamically, and its own imports, as the island, without the initial ones', () => {
    const { island } = pageJavaScript(dist);
    expect(island.scripts.map((script) => script.file)).toEqual(['/assets/island.js', '/assets/vendor.js']);
  });
});
