/** The order the test files run in (test-sequencer.cjs): the longest first, on a fresh machine too. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test } from '@jest/test-result';
import type DefaultSequencer from '@jest/test-sequencer';
import recordedSeconds from './test-durations.json';

// CommonJS, as jest loads it from jest.config.js.
const LongestFirstSequencer = createRequire(import.meta.filename)('./test-sequencer.cjs') as typeof DefaultSequencer;

const repoRoot = process.cwd();

/** Where jest keeps what it learnt of earlier runs: a new, empty one per test, removed after the file. */
const cacheDirectories: string[] = [];
const emptyCacheDirectory = () => {
  cacheDirectories.push(mkdtempSync(path.join(tmpdir(), 'sequencer-cache-')));
  return cacheDirectories.at(-1)!;
};
afterAll(() => cacheDirectories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));

/** The test files of one jest project as jest hands them to the sequencer, with their sizes in bytes. */
function projectFiles(sizes: Record<string, number>, cacheDirectory: string): Test[] {
  const config = { rootDir: repoRoot, cacheDirectory, cache: true, id: 'node', haste: {} };
  const context = { config, hasteFS: { getSize: (file: string) => sizes[path.relative(repoRoot, file)] } };
  return Object.keys(sizes).map((file) => ({ path: path.join(repoRoot, file), context }) as unknown as Test);
}

const order = (tests: readonly Test[]) => tests.map((test) => path.relative(repoRoot, test.path));

/** Results of an earlier run, as jest hands them to the sequencer to keep. */
function runResults(durations: Record<string, { seconds: number; failed?: boolean }>) {
  const testResults = Object.entries(durations).map(([file, { seconds, failed = false }]) => ({
    testFilePath: path.join(repoRoot, file),
    numFailingTests: failed ? 1 : 0,
    perfStats: { runtime: seconds * 1000, start: 0, end: seconds * 1000 },
  }));
  return { testResults } as never;
}

describe('the order of the test files', () => {
  test('on a machine with no earlier run, runs the recorded files longest first, then the rest, the larger first', () => {
    const cacheDirectory = emptyCacheDirectory();
    const tests = projectFiles(
      {
        'test/core/small.test.ts': 100,
        'test/infra/stacks.test.ts': 10,
        'test/core/large.test.ts': 900,
        'test/infra/app-entry.test.ts': 10,
      },
      cacheDirectory,
    );
    const sorted = new LongestFirstSequencer({} as never).sort(tests) as Test[];
    expect(order(sorted)).toEqual([
      'test/infra/app-entry.test.ts',
      'test/infra/stacks.test.ts',
      'test/core/large.test.ts',
      'test/core/small.test.ts',
    ]);
  });

  test("puts what jest kept from this machine's last run before the recorded durations, and a failed file first", () => {
    const cacheDirectory = emptyCacheDirectory();
    const sizes = {
      'test/infra/app-entry.test.ts': 100,
      'test/core/small.test.ts': 100,
      'test/core/broken.test.ts': 100,
    };
    new LongestFirstSequencer({} as never).cacheResults(
      projectFiles(sizes, cacheDirectory),
      runResults({
        'test/infra/app-entry.test.ts': { seconds: 3 },
        'test/core/small.test.ts': { seconds: 500 },
        'test/core/broken.test.ts': { seconds: 1, failed: true },
      }),
    );
    const sorted = new LongestFirstSequencer({} as never).sort(projectFiles(sizes, cacheDirectory)) as Test[];
    expect(order(sorted)).toEqual([
      'test/core/broken.test.ts',
      'test/core/small.test.ts',
      'test/infra/app-entry.test.ts',
    ]);
  });

  test('records only test files that exist', () => {
    const missing = Object.keys(recordedSeconds).filter(
      (file) => (!file.endsWith('.test.ts') && !file.endsWith('.test.tsx')) || !existsSync(path.join(repoRoot, file)),
    );
    expect(missing).toEqual([]);
  });
});
