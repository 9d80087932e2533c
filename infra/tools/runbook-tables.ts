/**
 * docs/operate.md's two tables of failure kinds, written from the failure catalogue
 * (`core/api/catalogue/failures.ts`) by `npm run runbook`: the failure kinds (each code, its status
 * and its runbook entry) and the Logs Insights queries (each code's filter line, on the
 * `failureKind` the functions log). A kind added to the catalogue is in both once the command
 * runs; a test fails while the committed page differs.
 */

import type { FailureKindSpec } from '../../core/api/catalogue/failure-kind';
import { failureKindList } from '../../core/api/catalogue/failures';

/** Where the tables live, from the repository's root. */
export const runbookFile = 'docs/operate.md';

/** A failure kind as the tables read it: its name in the catalogue and its entry. */
export type RunbookKind = Pick<FailureKindSpec, 'code' | 'status' | 'runbook'> & { readonly name: string };

/** The generated tables, each between its two markers. */
export const runbookTables = {
  'failure kinds': failureKindsTable,
  'Logs Insights queries': logsInsightsTable,
} as const;

type TableName = keyof typeof runbookTables;

const begin = (name: TableName) => `<!-- Generated from the failure catalogue by npm run runbook: ${name} -->`;
const end = (name: TableName) => `<!-- End of the generated ${name} -->`;

/** GitHub's anchor of a heading: lower case, punctuation but hyphens dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

/** Each heading of the page by its anchor, for the entries' link texts. */
function headingsOf(doc: string): ReadonlyMap<string, string> {
  const headings = doc.split('\n').flatMap((line) => {
    const match = /^#{1,6}\s+(.+?)\s*$/.exec(line);
    return match ? [[`#${anchorOf(match[1])}`, match[1]] as const] : [];
  });
  return new Map(headings);
}

/** A Markdown table with its columns padded to their widest cell, as Prettier writes it. */
function alignedTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

function failureKindsTable(kinds: readonly RunbookKind[], headings: ReadonlyMap<string, string>): string {
  const rows = kinds.map((kind) => {
    const heading = headings.get(kind.runbook);
    if (heading === undefined) {
      throw new Error(`${kind.name}'s runbook entry ${kind.runbook} is no heading of ${runbookFile}`);
    }
    return [`\`${kind.code}\``, String(kind.status), `[${heading}](${kind.runbook})`];
  });
  return alignedTable(['`code`', 'status', 'entry'], rows);
}

/** The filter line of a kind: the logged `failureKind`, or for the unexpected a 500 that is no typed error. */
export function logsInsightsFilter(kind: Pick<RunbookKind, 'name'>): string {
  return kind.name === 'unexpected'
    ? 'filter statusCode = 500 and errorName != "ProductError"'
    : `filter failureKind = "${kind.name}"`;
}

function logsInsightsTable(kinds: readonly RunbookKind[]): string {
  return alignedTable(
    ['`code`', 'filter line'],
    kinds.map((kind) => [`\`${kind.code}\``, `\`${logsInsightsFilter(kind)}\``]),
  );
}

/** The page with both tables written afresh from `kinds` (the catalogue's, unless a test passes a copy). */
export function withRunbookTables(doc: string, kinds: readonly RunbookKind[] = failureKindList): string {
  const headings = headingsOf(doc);
  let page = doc;
  for (const [name, build] of Object.entries(runbookTables) as [TableName, (typeof runbookTables)[TableName]][]) {
    const start = page.indexOf(begin(name));
    const stop = page.indexOf(end(name));
    if (start < 0 || stop < start) throw new Error(`${runbookFile} has no markers for the ${name} table`);
    page = `${page.slice(0, start)}${begin(name)}\n\n${build(kinds, headings)}\n\n${page.slice(stop)}`;
  }
  return page;
}
