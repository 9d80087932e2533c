/**
 * jest's global set-up for the whole run: every test, and every process a test starts, gets a
 * folder of this run as its temporary directory (TMPDIR), so that the global teardown can check
 * the run left nothing in it, whatever other programs do in the machine's own temporary folder.
 * It runs after jest has fixed its own cache folder, which stays where it was.
 */
import { tmpdir } from 'node:os';
import { freshTemporaryDirectory } from './temporary-directory';

export const runTemporaryDirectoryVariable = 'JEST_RUN_TMPDIR';
export const machineTemporaryDirectoryVariable = 'JEST_MACHINE_TMPDIR';

export default function setUpRunTemporaryDirectory(): void {
  const machineTemporaryDirectory = tmpdir();
  const runTemporaryDirectory = freshTemporaryDirectory('jest-run-', machineTemporaryDirectory);
  process.env[machineTemporaryDirectoryVariable] = machineTemporaryDirectory;
  process.env[runTemporaryDirectoryVariable] = runTemporaryDirectory;
  process.env.TMPDIR = runTemporaryDirectory;
}
