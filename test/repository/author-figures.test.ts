/**
 * docs/author.md tells the author, for erasure requests, how long the backups keep a deleted item
 * and how long the logs keep their events: the figures the template sets.
 */
import { logRetention } from '../../infra/constructs/encrypted-log-group';
import { pointInTimeRecoveryDays } from '../../infra/tools/audit-personal-data';
import { readDoc, section } from '../support/docs';

const erasure = section(readDoc('author.md'), 'Answering an erasure request');

test("states the backup period: point-in-time recovery's 35 days", () => {
  expect(erasure).toContain(
    `point-in-time recovery (the backups) keeps deleted items restorable for ${pointInTimeRecoveryDays} days`,
  );
});

test("states the log groups' retention as the template sets it", () => {
  expect(erasure).toContain(`the log groups keep their events ${logRetention} days`);
});
