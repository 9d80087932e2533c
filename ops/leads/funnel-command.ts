/**
 * `npm run leads -- funnel [--days N] [--json]`: the author's funnel of the last N UTC days
 * (today included; 7 by default), oldest first: visits to `/`, unique visitors, requests, e-mails
 * sent, delivered, bounced and complained, leads handed to the mail tool, and the conversion
 * (requests per unique visitor). A table for a person, `--json` for a machine. It reads counts
 * and each request's status only (lambdas/funnel/funnel-report.ts): no name or address.
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  conversionPercent,
  formatConversion,
  funnelColumnLabels,
  funnelColumns,
  funnelRetentionDays,
  type FunnelDay,
} from '../../core/data/funnel';
import { readFunnel } from '../../lambdas/funnel/funnel-report';
import type { LeadsCommandIo } from './leads-io';
import type { LeadsTables } from './leads-tables';

export const defaultFunnelDays = 7;

/** The most days `--days` takes: the days' counts are kept that long. */
export const maxFunnelDays = funnelRetentionDays;

/** `--days`: a whole number from 1 to `maxFunnelDays`, or undefined when it is not one. */
export function parseFunnelDays(value: string | undefined): number | undefined {
  if (value === undefined) return defaultFunnelDays;
  if (!/^\d+$/.test(value.trim())) return undefined;
  const days = Number(value);
  return days >= 1 && days <= maxFunnelDays ? days : undefined;
}

/** The funnel as a table: one row a day, numbers right-aligned under their headings. */
export function funnelTable(days: readonly FunnelDay[]): string {
  const header = ['day', ...funnelColumns.map((column) => funnelColumnLabels[column]), 'conversion'];
  const rows = days.map((day) => [
    day.day,
    ...funnelColumns.map((column) => String(day[column])),
    formatConversion(day),
  ]);
  const widths = header.map((heading, index) => Math.max(heading.length, ...rows.map((row) => row[index].length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[0]) : cell.padStart(widths[index]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** The funnel for a machine: each day's counts, and the conversion in percent (null without visitors). */
export function funnelJson(days: readonly FunnelDay[]): string {
  return JSON.stringify(
    { days: days.map((day) => ({ ...day, conversionPercent: conversionPercent(day) ?? null })) },
    null,
    2,
  );
}

export async function showFunnel(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  { days, json }: { readonly days: number; readonly json: boolean },
  io: LeadsCommandIo,
): Promise<number> {
  const now = (io.now ?? (() => new Date()))();
  const funnel = await readFunnel(client, tables, { days, now, pageSize: io.pageSize });
  io.stdout(json ? funnelJson(funnel) : funnelTable(funnel));
  return 0;
}
