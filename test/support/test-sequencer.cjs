/**
 * The order jest runs the test files in: the longest first, so that no long file starts last and
 * runs alone while the other workers wait (on two cores, one 60 s file started at the end adds
 * nearly 60 s to the run).
 *
 * jest orders by the durations it kept from the machine's last run; a fresh CI machine has none,
 * and jest then orders by file size, which put the app entry's and the snapshot check's files near
 * the end (the same suite: 294 s with the durations, 330 s without). Where jest knows no duration
 * for a file, the one recorded in test-durations.json stands in (test/support/record-test-durations.ts
 * writes it from a run's results); a file in neither runs after the recorded ones, the larger first.
 */
const path = require('node:path');
const DefaultSequencer = require('@jest/test-sequencer').default;

/** Seconds per test file, by its path from the repository root. */
const recordedSeconds = require('./test-durations.json');

module.exports = class LongestFirstSequencer extends DefaultSequencer {
  /** The duration jest kept from this machine's last run, else the recorded one, in milliseconds. */
  time(test) {
    const kept = super.time(test);
    if (kept !== undefined) return kept;
    const recorded = recordedSeconds[path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/')];
    return recorded === undefined ? undefined : recorded * 1000;
  }

  sort(tests) {
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const timed = tests.map((test) => ({ test, failed: this.hasFailed(test), duration: this.time(test) }));
    return timed
      .sort(
        (a, b) =>
          // A file that failed last time first, as jest does, for the quickest word on it.
          Number(b.failed) - Number(a.failed) || (b.duration ?? -1) - (a.duration ?? -1) || size(b.test) - size(a.test),
      )
      .map(({ test, duration }) => Object.assign(test, { duration }));
  }
};
