/**
 * Writes test-durations.json, the order test-sequencer.cjs falls back on where jest has kept no
 * durations (a fresh CI machine), from the results of a whole run:
 *
 *   npx jest --json --outputFile=/tmp/jest-results.json
 *   npx tsx test/support/record-test-durations.ts /tmp/jest-results.json
 *
 * Only files of at least two seconds are kept: their order is what decides the run's length; the
 * rest run after them, the larger first. A second argument writes elsewhere (the test's copy).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface JestResults {
  readonly testResults: ReadonlyArray<{ readonly name: string; readonly startTime: number; readonly endTime: number }>;
}

const [resultsFile, outputFile = path.join(import.meta.dirname, 'test-durations.json')] = process.argv.slice(2);
if (!resultsFile) {
  console.error('Usage: npx tsx test/support/record-test-durations.ts <jest --json output> [<file to write>]');
  process.exit(2);
}

const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as JestResults;
const durations = results.testResults
  .map(({ name, startTime, endTime }) => ({
    file: path.relative(process.cwd(), name).split(path.sep).join('/'),
    seconds: Math.round((endTime - startTime) / 1000),
  }))
  .filter(({ seconds }) => seconds >= 2)
  .sort((a, b) => a.file.localeCompare(b.file));
writeFileSync(
  outputFile,
  `${JSON.stringify(Object.fromEntries(durations.map((d) => [d.file, d.seconds])), null, 2)}\n`,
);
console.log(`${durations.length} test files of 2 s or more recorded in ${path.relative(process.cwd(), outputFile)}`);
