/**
 * docs/author.md tells the author, for erasure requests, how long the backups keep a deleted item
 * and how long the logs keep their events: the figures the template sets; and shows the weekly
 * digest's funnel as the digest writes it.
 */
import { funnelColumnLabels, funnelColumns, type FunnelDay } from '../../core/data/funnel';
import { logRetention } from '../../infra/constructs/encrypted-log-group';
import { funnelText } from '../../lambdas/lead-digest/funnel-weeks';
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

test("the digest's funnel in docs/author.md is what the digest writes for the counts it shows", () => {
  const digest = section(readDoc('author.md'), 'Hearing about new leads');
  const example = /```\n(Your page, [^`]+)```/.exec(digest)?.[1].trimEnd().split('\n') ?? [];
  const [, thisFrom, thisTo, beforeFrom, beforeTo] =
    /this week \((\S+) to (\S+)\) against the week before \((\S+) to (\S+)\)/.exec(example[0] ?? '') ?? [];
  const week = (index: number) =>
    Object.fromEntries(
      funnelColumns.map((column) => {
        const row = example.find((line) => line.trimStart().startsWith(`${funnelColumnLabels[column]}  `));
        return [column, Number(row?.trim().split(/ {2,}/)[index] ?? 0)];
      }),
    ) as Omit<FunnelDay, 'day'>;
  const written = funnelText({
    thisWeek: { from: thisFrom, to: thisTo, total: week(1) },
    weekBefore: { from: beforeFrom, to: beforeTo, total: week(2) },
  });
  // Every line but the footnote, which the page explains in its own words.
  expect(example.length).toBeGreaterThan(5);
  expect(example).toEqual(written.slice(0, -1));
});
