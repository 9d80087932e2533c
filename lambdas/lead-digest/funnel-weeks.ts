/**
 * The digest's funnel: the fourteen whole UTC days before the digest's own day, read as
 * `npm run leads -- funnel` reads them (lambdas/funnel/funnel-report.ts: visits and unique
 * visitors from the day counts, the requests with the canary's left out), summed per week, this
 * week against the one before, with the change. Fixed words and numbers only: nothing a visitor
 * typed is read (the Scan projects no name or address), so nothing of theirs can reach the e-mail.
 */

import {
  conversionPercent,
  formatConversion,
  funnelColumnLabels,
  funnelColumns,
  funnelTotal,
  type FunnelDay,
} from '../../core/data/funnel';
import { escapeHtml } from '../../core/documents/cheat-sheet-email';

/** Two weeks: this one and the one before. */
export const digestFunnelDays = 14;

const dayMs = 86_400_000;

/**
 * The instant whose UTC day is the last one the digest's funnel counts: the day before the
 * digest's. Monday 07:00 UTC counts through Sunday, so both weeks are whole days, as the day counts are.
 */
export function funnelEndOf(digestTime: Date): Date {
  return new Date(digestTime.getTime() - dayMs);
}

export interface FunnelWeek {
  /** Its first and last UTC day, `YYYY-MM-DD`. */
  readonly from: string;
  readonly to: string;
  readonly total: Omit<FunnelDay, 'day'>;
}

export interface FunnelWeeks {
  readonly thisWeek: FunnelWeek;
  readonly weekBefore: FunnelWeek;
}

/** The fourteen days (oldest first, as readFunnel gives them) as two weeks. */
export function funnelWeeks(days: readonly FunnelDay[]): FunnelWeeks {
  if (days.length !== digestFunnelDays)
    throw new Error(`The digest's funnel takes ${digestFunnelDays} days, not ${days.length}.`);
  const week = (ofWeek: readonly FunnelDay[]): FunnelWeek => ({
    from: ofWeek[0].day,
    to: ofWeek[ofWeek.length - 1].day,
    total: funnelTotal(ofWeek),
  });
  return { weekBefore: week(days.slice(0, 7)), thisWeek: week(days.slice(7)) };
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** `+20 (+25%)`, `-3 (-30%)`, `0`; from none, the difference alone (`+4`): no percentage of nothing. */
export function countChange(before: number, now: number): string {
  const difference = now - before;
  if (difference === 0) return '0';
  return before === 0
    ? signed(difference)
    : `${signed(difference)} (${signed(Math.round((difference / before) * 100))}%)`;
}

/** The conversion's change in percentage points (`+2 pts`); `-` when a week had no visitor. */
export function conversionChange(before: Omit<FunnelDay, 'day'>, now: Omit<FunnelDay, 'day'>): string {
  const [was, is] = [conversionPercent(before), conversionPercent(now)];
  return was === undefined || is === undefined ? '-' : `${signed(is - was)} pts`;
}

/** The rows shown: every column, but the hand-offs when neither week had any (no mail tool, most likely). */
function rowsOf({ thisWeek, weekBefore }: FunnelWeeks): [string, string, string, string][] {
  const shown = funnelColumns.filter(
    (column) => column !== 'handedOff' || thisWeek.total.handedOff > 0 || weekBefore.total.handedOff > 0,
  );
  return [
    ...shown.map((column): [string, string, string, string] => [
      funnelColumnLabels[column],
      String(thisWeek.total[column]),
      String(weekBefore.total[column]),
      countChange(weekBefore.total[column], thisWeek.total[column]),
    ]),
    [
      'conversion',
      formatConversion(thisWeek.total),
      formatConversion(weekBefore.total),
      conversionChange(weekBefore.total, thisWeek.total),
    ],
  ];
}

const heading = ({ thisWeek, weekBefore }: FunnelWeeks) =>
  `Your page, this week (${thisWeek.from} to ${thisWeek.to}) against the week before (${weekBefore.from} to ${weekBefore.to}), in whole UTC days:`;

const columnHeadings = ['', 'this week', 'week before', 'change'] as const;

const footnote =
  "Unique visitors count each reader once a day, with no cookie; conversion is requests per unique visitor. Known bots and the site's own canary are not counted.";

/** The funnel as plain text: a heading, a table aligned in columns, a footnote. */
export function funnelText(weeks: FunnelWeeks): string[] {
  const rows = [[...columnHeadings], ...rowsOf(weeks)];
  const widths = columnHeadings.map((_, index) => Math.max(...rows.map((row) => row[index].length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, index) => (index === 0 ? cell.padEnd(widths[0]) : cell.padStart(widths[index])))
      .join('  ')
      .trimEnd();
  return [heading(weeks), ...rows.map((row) => `  ${line(row)}`), footnote];
}

/** Inline, as mail clients keep inline styles best: the lines' names to the left, the figures to the right, as in the text. */
const labelStyle = 'text-align:left;padding-right:1em';
const figureStyle = 'text-align:right;padding-left:1em';

/** The same as an HTML table: fixed words and numbers, escaped all the same. */
export function funnelHtml(weeks: FunnelWeeks): string {
  const cells = (row: readonly string[], header: boolean) =>
    row
      .map((cell, index) => {
        const style = index === 0 ? labelStyle : figureStyle;
        return header || index === 0
          ? `<th scope="${header ? 'col' : 'row'}" style="${style}">${escapeHtml(cell)}</th>`
          : `<td style="${style}">${escapeHtml(cell)}</td>`;
      })
      .join('');
  return [
    `<p>${escapeHtml(heading(weeks))}</p>`,
    '<table>',
    `<tr>${cells(columnHeadings, true)}</tr>`,
    ...rowsOf(weeks).map((row) => `<tr>${cells(row, false)}</tr>`),
    '</table>',
    `<p>${escapeHtml(footnote)}</p>`,
  ].join('');
}
