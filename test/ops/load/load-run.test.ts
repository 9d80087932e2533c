/**
 * A small load, as `npm run load` plays it, against the local twin with SES's rate at 1 a second:
 * 2 readers a second for 3 seconds. Every reader is answered 2xx at once, each address gets its
 * e-mail exactly once, and SES never accepts two in one second (the minutes-long runs are
 * docs/performance.md's benchmarks, not CI's).
 */

import { runLoad, type LoadReport } from '../../../ops/load/load-run';
import { startLocalStack, type LocalStack } from '../../../local/local-stack';
import { cheatSheetPdfForTests } from '../../support/cheat-sheet-pdf';

let stack: LocalStack;
let report: LoadReport;

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  // Every reader comes from 127.0.0.1: the per-client and per-network caps raised, as the load's own twin does.
  stack = await startLocalStack({
    siteDir: null,
    cheatSheetPdf: await cheatSheetPdfForTests(),
    clientHourlySendCap: 100,
    networkHourlySendCap: 100,
    clientHourlySaveCap: 100,
    networkHourlySaveCap: 100,
    sesMaxSendRate: 1,
  });
  report = await runLoad({
    rate: 2,
    durationSeconds: 3,
    siteUrl: stack.urls.site.replace('localhost', '127.0.0.1'),
    mailUrl: stack.urls.mail,
    drainTimeoutMs: 30_000,
  });
}, 60_000);
afterAll(() => stack?.stop());

test('answers every reader 2xx on both calls, though SES takes 1 a second', () => {
  expect(report.readers).toBe(6);
  expect(report.replies).toEqual({ 'save 201': 6, 'send 200': 6 });
});

test('has each address mailed exactly once', () => {
  expect(report.emails).toEqual(expect.objectContaining({ accepted: 6, addressesMailedTwice: 0 }));
});

test('never has SES accept two e-mails in one second', () => {
  expect(report.emails?.mostInOneSecond).toBe(1);
});
