/**
 * The stage's sample values (ops/preflight/stage-values-check.ts): each example.com value left in
 * a stage of cdk.json, with its line; production fails on them, staging warns.
 */

import { readFileSync } from 'node:fs';
import { checkStageValues, sampleStageValues } from '../../../ops/preflight/stage-values-check';

const cdkJson = JSON.stringify(
  {
    context: {
      stages: {
        staging: { account: '111111111111', senderEmail: 'cheatsheet@staging.example.com' },
        production: {
          account: '222222222222',
          senderEmail: 'cheatsheet@books.example.org',
          senderDomain: 'books.example.org',
          alarmEmail: 'ops@books.real-author.net',
          authorEmail: 'author@example.com',
          siteUrl: 'https://www.example.com',
          dailySendBudget: 500,
        },
      },
    },
  },
  null,
  2,
);

test('names every value of the stage at an example domain, with its line in cdk.json', () => {
  expect(sampleStageValues(cdkJson, 'production')).toEqual([
    { key: 'senderEmail', value: 'cheatsheet@books.example.org', line: 10 },
    { key: 'senderDomain', value: 'books.example.org', line: 11 },
    { key: 'authorEmail', value: 'author@example.com', line: 13 },
    { key: 'siteUrl', value: 'https://www.example.com', line: 14 },
  ]);
});

test("fails production, naming each value's file and line", () => {
  const result = checkStageValues(sampleStageValues(cdkJson, 'production'), 'production');

  expect(result.status).toBe('FAIL');
  expect(result.detail).toContain('cdk.json:13: stages.production.authorEmail "author@example.com"');
});

test('only warns for staging', () => {
  expect(checkStageValues(sampleStageValues(cdkJson, 'staging'), 'staging').status).toBe('WARN');
});

test('passes a stage with its own values', () => {
  const own = JSON.stringify({ context: { stages: { production: { authorEmail: 'sam@oneill-books.com' } } } });

  expect(checkStageValues(sampleStageValues(own, 'production'), 'production').status).toBe('PASS');
});

test("flags the repository's own production authorEmail until the author sets it", () => {
  const keys = sampleStageValues(readFileSync('cdk.json', 'utf8'), 'production').map(({ key }) => key);

  expect(keys).toContain('authorEmail');
});
