/**
 * The leads as CSV: RFC 4180 (comma, double quotes, CRLF line ends) in UTF-8, written by
 * csv-stringify, with every cell a spreadsheet would run as a formula neutralised first. One
 * builder for `npm run leads -- export` (ops/) and the weekly digest's attachment (lambdas/), so
 * both hand the author the same file.
 */

import { stringify } from 'csv-stringify/sync';
import type { CheatSheetRequestItem } from './tables';

/**
 * The header, in this order: the five first columns as they always were, then the request's
 * delivery and the reader's consent, then (after the columns others rely on) the reader's answer
 * to the mailing-list box (`true` or `false`; empty when the form offered none) with its words,
 * and the versions of the privacy page and the form the reader saw. An item written before a
 * field existed has an empty cell.
 */
export const leadsColumns = [
  'name',
  'email',
  'requested_at',
  'cheat_sheet_sent',
  'sent_at',
  'delivery_status',
  'status_at',
  'consent_at',
  'consent_statement',
  'mailing_list',
  'mailing_list_statement',
  'privacy_version',
  'form_version',
] as const;

/**
 * The characters a spreadsheet reads as the start of a formula (OWASP, CSV injection): `=`, `+`,
 * `-`, `@`, and tab and carriage return, which some programs strip before looking.
 */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * OWASP's advice: a single quote before such a cell makes the spreadsheet show it as text, and
 * keeps every character of it. The name and the address are what a visitor typed.
 */
export function neutraliseFormula(cell: string): string {
  return formulaStart.test(cell) ? `'${cell}` : cell;
}

/** The reader's answer to the mailing-list box: empty where the form offered none (no provider, or an older request). */
const mailingListCell = (joined: unknown) => (typeof joined === 'boolean' ? String(joined) : '');

/** The requests as one CSV document, header first, in the order given. */
export function leadsCsv(items: readonly CheatSheetRequestItem[]): string {
  const rows = items.map((item) => [
    neutraliseFormula(String(item.name ?? '')),
    neutraliseFormula(String(item.email ?? '')),
    neutraliseFormula(String(item.requested_at ?? '')),
    item.cheat_sheet_sent === true ? 'true' : 'false',
    neutraliseFormula(item.sent_at === undefined ? '' : String(item.sent_at)),
    neutraliseFormula(String(item.delivery_status ?? '')),
    neutraliseFormula(String(item.status_at ?? '')),
    neutraliseFormula(String(item.consent?.at ?? '')),
    neutraliseFormula(String(item.consent?.statement ?? '')),
    mailingListCell(item.consent?.mailing_list?.joined),
    neutraliseFormula(String(item.consent?.mailing_list?.statement ?? '')),
    neutraliseFormula(String(item.consent?.privacy_version ?? '')),
    neutraliseFormula(String(item.consent?.form_version ?? '')),
  ]);
  return stringify(rows, { header: true, columns: [...leadsColumns], record_delimiter: 'windows' });
}

/** Newest request first; requests of the same instant by id, so the order is stable. */
export function newestFirst(items: readonly CheatSheetRequestItem[]): CheatSheetRequestItem[] {
  return [...items].sort((a, b) => b.requested_at.localeCompare(a.requested_at) || a.id.localeCompare(b.id));
}
