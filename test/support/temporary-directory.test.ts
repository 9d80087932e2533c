/** The run's temporary directory: the global set-up makes a fresh one, the teardown checks it. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshTemporaryDirectory, machineCaches } from './temporary-directory';
import { removeRunTemporaryDirectory } from './temporary-directory-teardown';

let machine: string;

beforeEach(() => {
  // Stands for the machine's temporary folder, holding tsx's cache as it usually does.
  machine = mkdtempSync(path.join(tmpdir(), 'machine-'));
  mkdirSync(path.join(machine, machineCaches[0]!));
});

afterEach(() => {
  rmSync(machine, { recursive: true, force: true });
});

describe("the jest run's temporary directory", () => {
  test('starts empty but for links to the caches the machine holds', () => {
    const run = freshTemporaryDirectory('jest-run-', machine);

    expect(readdirSync(run)).toEqual([machineCaches[0]]);
  });

  test('is removed with nothing reported when the tests left nothing', () => {
    const run = freshTemporaryDirectory('jest-run-', machine);
    mkdirSync(path.join(run, machineCaches[1]!)); // a cache made during the run goes with it

    expect(() => removeRunTemporaryDirectory(run)).not.toThrow();
    expect(existsSync(run)).toBe(false);
    expect(readdirSync(machine)).toEqual([machineCaches[0]]);
  });

  test('fails the run naming what the tests left, and removes it', () => {
    const run = freshTemporaryDirectory('jest-run-', machine);
    mkdirSync(path.join(run, 'cdk.outAbC123'));
    writeFileSync(path.join(run, 'report.txt'), 'left behind');

    expect(() => removeRunTemporaryDirectory(run)).toThrow(
      'The tests left 2 entries in the temporary directory (removed now): cdk.outAbC123, report.txt',
    );
    expect(existsSync(run)).toBe(false);
    expect(existsSync(path.join(machine, machineCaches[0]!))).toBe(true);
  });
});
