/**
 * The weekly digest of new leads: every request saved in the last seven days, as the export's CSV
 * (core/data/leads-csv.ts: formula-safe), attached to one e-mail to the author with the counts by
 * delivery status and the page's funnel, this week against the one before (funnel-weeks.ts). The
 * e-mail's own text holds numbers, dates and fixed words only: no name or address a visitor typed
 * reaches its HTML.
 */

import { canaryItemAttribute } from '../../core/data/canary-mark';
import { paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { leadsCsv, newestFirst } from '../../core/data/leads-csv';
import type { CheatSheetRequestItem } from '../../core/data/tables';
import type { OutgoingEmail } from '../mail/email-sender';
import { deliveryStatuses, type DeliveryStatus } from '../../core/data/delivery-status';
import {
  handoffAttribute,
  handoffStopReasons,
  mailProviderNames,
  type HandoffRecord,
  type HandoffStopReason,
} from '../../core/data/mail-provider';
import { escapeHtml } from '../../core/documents/cheat-sheet-email';

import { leadDigestVariables } from '../../core/config/function-environment';
import { funnelHtml, funnelText, type FunnelWeeks } from './funnel-weeks';

/** The digest function's variables (core/config/function-environment.ts; `leads export --mail` reads `AUTHOR_EMAIL` too). */
export { leadDigestVariables };

export interface LeadDigestConfig {
  readonly tableName: string;
  /** The limit counters' table: the funnel's day counts. */
  readonly limitCountersTableName: string;
  readonly senderEmail: string;
  readonly authorEmail: string;
  readonly configurationSetName?: string;
}

export function readLeadDigestConfig(env: NodeJS.ProcessEnv): LeadDigestConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  const missing = [
    leadDigestVariables.tableName,
    leadDigestVariables.limitCountersTableName,
    leadDigestVariables.senderEmail,
    leadDigestVariables.authorEmail,
  ].filter((name) => value(name) === undefined);
  if (missing.length > 0) throw new Error(`The digest is not configured: ${missing.join(', ')} missing.`);
  const configurationSetName = value(leadDigestVariables.configurationSetName);
  return {
    tableName: value(leadDigestVariables.tableName)!,
    limitCountersTableName: value(leadDigestVariables.limitCountersTableName)!,
    senderEmail: value(leadDigestVariables.senderEmail)!,
    authorEmail: value(leadDigestVariables.authorEmail)!,
    ...(configurationSetName !== undefined && { configurationSetName }),
  };
}

/**
 * A request's delivery status. Items written before `delivery_status` existed have none: they
 * count as `unknown` (their delivery was never tracked), as does a value the digest does not know.
 */
export function deliveryStatusOf(item: CheatSheetRequestItem): DeliveryStatus {
  const status = (item as { delivery_status?: unknown }).delivery_status;
  return deliveryStatuses.find((known) => known === status) ?? 'unknown';
}

/** How many requests are in each status; statuses with none are left out. */
export function countByDeliveryStatus(items: readonly CheatSheetRequestItem[]): [DeliveryStatus, number][] {
  const counts = new Map<DeliveryStatus, number>();
  for (const item of items) counts.set(deliveryStatusOf(item), (counts.get(deliveryStatusOf(item)) ?? 0) + 1);
  return deliveryStatuses.filter((status) => counts.has(status)).map((status) => [status, counts.get(status)!]);
}

/** The week the digest covers: the seven days before `now`. */
export function weekBefore(now: Date): { readonly since: string; readonly until: string } {
  return { since: new Date(now.getTime() - 7 * 24 * 3600 * 1000).toISOString(), until: now.toISOString() };
}

/**
 * The requests saved in [since, until), newest first. A Scan with a filter: the table holds one
 * small item per request and no index orders all of them by time; once a week this reads it whole.
 */
export async function requestsBetween(
  client: DynamoDBDocumentClient,
  tableName: string,
  { since, until }: { readonly since: string; readonly until: string },
  { pageSize }: { readonly pageSize?: number } = {},
): Promise<CheatSheetRequestItem[]> {
  const items: CheatSheetRequestItem[] = [];
  const pages = paginateScan(
    { client, pageSize },
    {
      TableName: tableName,
      // The canary's requests (core/data/canary-mark.ts) are no leads.
      FilterExpression: 'requested_at >= :since AND requested_at < :until AND attribute_not_exists(#canary)',
      ExpressionAttributeNames: { '#canary': canaryItemAttribute },
      ExpressionAttributeValues: { ':since': since, ':until': until },
    },
  );
  for await (const page of pages) items.push(...((page.Items ?? []) as CheatSheetRequestItem[]));
  return newestFirst(items);
}

const day = (iso: string) => iso.slice(0, 10);

/**
 * What the week's hand-offs to the author's mail provider came to (with `mailProvider`): how many
 * readers reached the list, how many are still being retried, and how many could not be added,
 * with why. Numbers and fixed words only; none when no request records a hand-off.
 */
export function handoffSummary(items: readonly CheatSheetRequestItem[]): string[] {
  const records = items.flatMap((item) => {
    const record = (item as { [handoffAttribute]?: HandoffRecord })[handoffAttribute];
    return record ? [record] : [];
  });
  if (records.length === 0) return [];
  const provider = mailProviderNames[records[0].provider] ?? records[0].provider;
  const count = (result: string) => records.filter((record) => record.result === result).length;
  const stopped = records.filter((record) => record.result === 'stopped');
  const reasons = (Object.keys(handoffStopReasons) as HandoffStopReason[]).flatMap((reason) => {
    const n = stopped.filter((record) => record.reason === reason).length;
    return n === 0 ? [] : [`  ${n}: ${handoffStopReasons[reason]}`];
  });
  return [
    `Your mailing list (${provider}): ${count('accepted')} added, ${count('retrying')} still being retried, ${stopped.length} could not be added.`,
    ...(stopped.length === 0
      ? []
      : [
          ...reasons,
          'The operator has a ticket for them. They are in the attached CSV: add them by hand, or wait until the operator sends them again.',
        ]),
  ];
}

/** The e-mail: counts and the funnel in the text, the requests in the attachment. */
export function digestEmail(
  items: readonly CheatSheetRequestItem[],
  week: { readonly since: string; readonly until: string },
  config: LeadDigestConfig,
  funnel: FunnelWeeks,
): OutgoingEmail {
  const counts = countByDeliveryStatus(items);
  const handoffs = handoffSummary(items);
  const period = `${day(week.since)} to ${day(week.until)}`;
  const summary =
    items.length === 0
      ? [`No new cheat-sheet requests from ${period}.`]
      : [
          `${items.length} new cheat-sheet request${items.length === 1 ? '' : 's'} from ${period}, attached as CSV.`,
          '',
          'By delivery status:',
          ...counts.map(([status, count]) => `  ${status}: ${count}`),
          ...(handoffs.length === 0 ? [] : ['', ...handoffs]),
        ];
  // Shown in a week without requests too: visits and no request is a broken form as much as a quiet week.
  const text = [...summary, '', ...funnelText(funnel)];
  const html = [
    '<!doctype html><html><body>',
    `<p>${summary[0]}</p>`,
    counts.length === 0
      ? ''
      : `<p>By delivery status:</p><ul>${counts.map(([status, count]) => `<li>${status}: ${count}</li>`).join('')}</ul>`,
    // Fixed words and numbers (handoffSummary), escaped all the same.
    ...handoffs.map((line) => `<p>${escapeHtml(line.trim())}</p>`),
    funnelHtml(funnel),
    '</body></html>',
  ].join('');
  return {
    from: config.senderEmail,
    to: config.authorEmail,
    subject: `Cheat-sheet requests, week to ${day(week.until)}: ${items.length} new`,
    text: `${text.join('\n')}\n`,
    html,
    attachment: {
      fileName: `cheat-sheet-requests-${day(week.until)}.csv`,
      contentType: 'text/csv; charset=utf-8',
      content: new TextEncoder().encode(leadsCsv(items)),
    },
    ...(config.configurationSetName !== undefined && { configurationSetName: config.configurationSetName }),
  };
}
