/**
 * The cold-start measurement for real, one pair each for three functions: each function's bundle
 * runs its first invocation in a fresh process against the local twin, and its floor makes the
 * same SDK calls. (The figures themselves are docs/performance.md's, on a quiet machine: a test
 * on a shared CI machine asserts what was measured, not how fast.)
 */

import * as bundler from '../../../infra/function-bundle';
import { measureColdStarts, type ColdStartRow } from '../../../local/cold-start/measure-cold-start';

// Each function bundled once per run, shared with the other files that bundle (test/support/function-bundle-cache.ts).
jest.mock('../../../infra/function-bundle', () => {
  const actual = jest.requireActual<typeof import('../../../infra/function-bundle')>('../../../infra/function-bundle');
  const { sharedBundles } = jest.requireActual<typeof import('../../support/function-bundle-cache')>(
    '../../support/function-bundle-cache',
  );
  return { ...actual, bundleFunction: sharedBundles(actual.bundleFunction) };
});

let rows: ColdStartRow[];
beforeAll(async () => {
  rows = await measureColdStarts({ bundler, pairs: 1, only: ['saveRequest', 'sesEvents', 'cheatSheetChallenge'] });
}, 120_000);

test('measures each function asked for, with both figures', () => {
  expect(rows.map((row) => row.name)).toEqual(['saveRequest', 'cheatSheetChallenge', 'sesEvents']);
  for (const row of rows) {
    expect(row.firstReplyMs).toBeGreaterThan(0);
    expect(row.floorMs).toBeGreaterThan(0);
    expect(row.ratio).toBeCloseTo(row.firstReplyMs / row.floorMs, 5);
  }
});

test("records the SDK calls of the save function's first invocation: its writes to DynamoDB", () => {
  const save = rows.find((row) => row.name === 'saveRequest')!;
  expect(save.calls).toContain('DYNAMODB/PutItemCommand');
  expect(save.calls.every((call) => call.startsWith('DYNAMODB/'))).toBe(true);
});

test("measures the challenge as deployed: its one call reads the deployment's secret, to sign the challenge", () => {
  const challenge = rows.find((row) => row.name === 'cheatSheetChallenge')!;
  expect(challenge.calls).toEqual(['SECRETS_MANAGER/GetSecretValueCommand']);
});

test("gives each floor exactly its function's SDK calls, in the same order", () => {
  for (const row of rows) {
    expect(row.calls.length).toBeGreaterThan(0);
    expect(row.floorCalls).toEqual(row.calls);
  }
});
