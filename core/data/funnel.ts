/**
 * The author's funnel, per UTC day: visits to `/`, unique visitors, requests saved, e-mails sent,
 * delivered, bounced or complained, leads handed to the mail tool, and the conversion (requests
 * per unique visitor). Plain data and pure functions: the visit function writes the day's counts
 * under the ids below (lambdas/funnel/), and the leads tool, the weekly digest and the twin read
 * them back through `funnelOf`. The counts live in the limit counters' table; the day's salt and
 * visitor marks in `cheat_sheet_funnel_visitors`, which no backup keeps (core/data/tables.ts).
 *
 * Unique visitors are counted as privacy-first analytics count them (Plausible's
 * "daily-rotating salt"): the keyed hash of the day, the client's network and its user agent,
 * under a random salt made for that day alone. No cookie, no local storage, no address and no
 * user agent is stored: only the hash, which expires with its day, as the salt does. Once the salt
 * is gone nobody can tell whose hash it was, even by trying every address; and a visitor is
 * a new unique visitor each day.
 */

import type { CheatSheetRequestItem } from './tables';
import { handoffAttribute, type HandoffRecord } from './mail-provider';

/** A UTC day, `YYYY-MM-DD`. */
export type FunnelDayKey = string;

/** The day's counts, `funnel#<day>`, in the limit counters' table (its ids carry a `#`, as the counters' do). */
export function funnelDayId(day: FunnelDayKey): string {
  return `funnel#${day}`;
}

/**
 * The day's random salt, `funnel-salt#<day>`, in the funnel visitors' table: expires at the day's
 * end, and the next day's first visit deletes it.
 */
export function visitorSaltId(day: FunnelDayKey): string {
  return `funnel-salt#${day}`;
}

/** One unique visitor of the day, `funnel-visitor#<day>#<hash>`, in the funnel visitors' table: written once, expires with the day. */
export function visitorMarkId(day: FunnelDayKey, visitorHash: string): string {
  return `funnel-visitor#${day}#${visitorHash}`;
}

/**
 * How long a day's counts are kept: 400 days, so a year can be compared with the one before; they
 * are two numbers a day, and nobody's.
 */
export const funnelRetentionDays = 400;

/** The day's counts as stored. */
export interface FunnelDayItem {
  readonly id: string;
  readonly visits?: number;
  readonly unique_visitors?: number;
  /** Epoch seconds: `funnelRetentionDays` after the day. */
  readonly expires_at?: number;
}

/** One day of the funnel. */
export interface FunnelDay {
  readonly day: FunnelDayKey;
  readonly visits: number;
  readonly uniqueVisitors: number;
  readonly requests: number;
  readonly sent: number;
  readonly delivered: number;
  readonly bounced: number;
  readonly complained: number;
  readonly handedOff: number;
}

/** The columns of a funnel, in the order every view shows them. */
export const funnelColumns = [
  'visits',
  'uniqueVisitors',
  'requests',
  'sent',
  'delivered',
  'bounced',
  'complained',
  'handedOff',
] as const satisfies readonly (keyof FunnelDay)[];

/** What each column is called wherever a person reads it (the funnel command's table, the weekly digest). */
export const funnelColumnLabels: Readonly<Record<(typeof funnelColumns)[number], string>> = {
  visits: 'visits',
  uniqueVisitors: 'unique visitors',
  requests: 'requests',
  sent: 'sent',
  delivered: 'delivered',
  bounced: 'bounced',
  complained: 'complained',
  handedOff: 'handed off',
};

/** The day an instant falls on, in UTC. */
export function dayOf(instant: Date | string): FunnelDayKey {
  return (typeof instant === 'string' ? new Date(instant) : instant).toISOString().slice(0, 10);
}

/** The `days` UTC days up to and including `now`'s, oldest first. */
export function lastDays(now: Date, days: number): FunnelDayKey[] {
  const today = Date.parse(`${dayOf(now)}T00:00:00.000Z`);
  return Array.from({ length: days }, (_, index) => dayOf(new Date(today - (days - 1 - index) * 86_400_000)));
}

/** Epoch seconds of the end of a UTC day. */
export function endOfDaySeconds(day: FunnelDayKey): number {
  return Date.parse(`${day}T00:00:00.000Z`) / 1000 + 86_400;
}

const sentStatuses = new Set(['sent', 'delivered', 'bounced', 'complained']);

/** What the funnel reads of a request. */
export type FunnelRequest = Pick<
  CheatSheetRequestItem,
  'requested_at' | 'cheat_sheet_sent' | 'delivery_status' | 'delivered_at'
> & { readonly [handoffAttribute]?: Pick<HandoffRecord, 'result'> };

/** Each day's funnel: the visit counts as stored, and the requests saved that day with where they stand now. */
export function funnelOf(
  days: readonly FunnelDayKey[],
  visitCounts: readonly FunnelDayItem[],
  requests: readonly FunnelRequest[],
): FunnelDay[] {
  const counts = new Map(visitCounts.map((item) => [item.id, item]));
  return days.map((day) => {
    const ofDay = requests.filter((item) => dayOf(item.requested_at) === day);
    const status = (item: FunnelRequest) => item.delivery_status;
    const counted = counts.get(funnelDayId(day));
    return {
      day,
      visits: counted?.visits ?? 0,
      uniqueVisitors: counted?.unique_visitors ?? 0,
      requests: ofDay.length,
      // Items from before delivery_status existed say it with cheat_sheet_sent.
      sent: ofDay.filter((item) => sentStatuses.has(status(item) ?? '') || (!status(item) && item.cheat_sheet_sent))
        .length,
      // A complaint may follow a delivery: that e-mail was delivered too.
      delivered: ofDay.filter((item) => status(item) === 'delivered' || item.delivered_at !== undefined).length,
      bounced: ofDay.filter((item) => status(item) === 'bounced').length,
      complained: ofDay.filter((item) => status(item) === 'complained').length,
      handedOff: ofDay.filter((item) => item[handoffAttribute]?.result === 'accepted').length,
    };
  });
}

/** The sum of several days (a week, for the digest). Unique visitors add up per day: a reader who came back another day counts once each day. */
export function funnelTotal(days: readonly FunnelDay[]): Omit<FunnelDay, 'day'> {
  const total = Object.fromEntries(funnelColumns.map((column) => [column, 0])) as Record<
    (typeof funnelColumns)[number],
    number
  >;
  for (const day of days) for (const column of funnelColumns) total[column] += day[column];
  return total;
}

/** Requests per unique visitor, as a percentage rounded to a whole number; undefined without visitors. */
export function conversionPercent({
  requests,
  uniqueVisitors,
}: Pick<FunnelDay, 'requests' | 'uniqueVisitors'>): number | undefined {
  return uniqueVisitors === 0 ? undefined : Math.round((requests / uniqueVisitors) * 100);
}

/** `133%`, or `-` for a day with no visitor. */
export function formatConversion(day: Pick<FunnelDay, 'requests' | 'uniqueVisitors'>): string {
  const percent = conversionPercent(day);
  return percent === undefined ? '-' : `${percent}%`;
}
