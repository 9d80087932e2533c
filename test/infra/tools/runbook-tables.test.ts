/**
 * docs/operate.md's two tables of failure kinds are the catalogue's, written by `npm run runbook`:
 * the committed page is what the command writes, and a kind added to a copy of the catalogue, and
 * nowhere else, is a row of both.
 */
import { failureKindList } from '../../../core/api/catalogue/failures';
import { runbookFile, withRunbookTables } from '../../../infra/tools/runbook-tables';
import { readDoc, section } from '../../support/docs';

const page = readDoc(runbookFile);

test('the committed docs/operate.md is what npm run runbook writes from the catalogue', () => {
  expect(withRunbookTables(page)).toBe(page);
});

test('a kind added to a copy of the catalogue is a row of both tables, with its status, entry and filter', () => {
  const queueFull = { name: 'queueFull', code: 'queue_full', status: 503, runbook: '#ses-unavailable' } as const;
  const written = withRunbookTables(page, [...failureKindList, queueFull]);

  expect(section(written, 'Failure kinds')).toMatch(
    /^\| `queue_full` +\| 503 +\| \[SES unavailable\]\(#ses-unavailable\) +\|$/m,
  );
  expect(section(written, 'Logs Insights queries')).toMatch(
    /^\| `queue_full` +\| `filter failureKind = "queueFull"` +\|$/m,
  );
});

test('refuses a kind whose runbook entry is no heading of the page', () => {
  const lost = { name: 'lost', code: 'lost', status: 500, runbook: '#no-such-heading' } as const;

  expect(() => withRunbookTables(page, [...failureKindList, lost])).toThrow(
    "lost's runbook entry #no-such-heading is no heading of docs/operate.md",
  );
});
