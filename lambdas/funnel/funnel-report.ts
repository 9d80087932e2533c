/**
 * Reads the funnel of the last days: the visit counts (a GetItem a day from the limit counters'
 * table) and the requests saved since the first of them (a filtered Scan of the requests'
 * table, as the digest's, the canary's left out), put together by `funnelOf` (core/data/funnel.ts).
 * The weekly digest and `npm run leads -- funnel` read it alike.
 */

import { GetCommand, paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  funnelDayId,
  funnelOf,
  lastDays,
  type FunnelDay,
  type FunnelDayItem,
  type FunnelRequest,
} from '../../core/data/funnel';
import { canaryItemAttribute } from '../../core/data/canary-mark';
import { handoffAttribute } from '../../core/data/mail-provider';
import { limitCountersPartitionKey } from '../../core/data/tables';

export interface FunnelTables {
  readonly requests: string;
  readonly limitCounters: string;
}

/** Days read at once: each a GetItem of its own. */
const daysAtOnce = 25;

/**
 * The days' counts, one eventually consistent GetItem each (half a read unit): the leads reader
 * role may get an item of the limit counters' table, not batch-get them.
 */
async function visitCountsOf(
  client: DynamoDBDocumentClient,
  tableName: string,
  days: readonly string[],
): Promise<FunnelDayItem[]> {
  const items: FunnelDayItem[] = [];
  for (let start = 0; start < days.length; start += daysAtOnce) {
    const replies = await Promise.all(
      days
        .slice(start, start + daysAtOnce)
        .map((day) =>
          client.send(new GetCommand({ TableName: tableName, Key: { [limitCountersPartitionKey]: funnelDayId(day) } })),
        ),
    );
    items.push(...replies.flatMap(({ Item }) => (Item ? [Item as FunnelDayItem] : [])));
  }
  return items;
}

async function requestsSince(
  client: DynamoDBDocumentClient,
  tableName: string,
  since: string,
  pageSize?: number,
): Promise<FunnelRequest[]> {
  const items: FunnelRequest[] = [];
  const pages = paginateScan(
    { client, pageSize },
    {
      TableName: tableName,
      // The canary's requests (core/data/canary-mark.ts) are no readers'.
      FilterExpression: 'requested_at >= :since AND attribute_not_exists(#canary)',
      // Only what the funnel counts: no name, no address leaves the table.
      ProjectionExpression: 'requested_at, cheat_sheet_sent, delivery_status, delivered_at, #handoff.#result',
      ExpressionAttributeNames: { '#handoff': handoffAttribute, '#result': 'result', '#canary': canaryItemAttribute },
      ExpressionAttributeValues: { ':since': since },
    },
  );
  for await (const page of pages) items.push(...((page.Items ?? []) as FunnelRequest[]));
  return items;
}

/** The funnel of the `days` UTC days up to `now`'s, oldest first. */
export async function readFunnel(
  client: DynamoDBDocumentClient,
  tables: FunnelTables,
  { days, now, pageSize }: { readonly days: number; readonly now: Date; readonly pageSize?: number },
): Promise<FunnelDay[]> {
  const dayKeys = lastDays(now, days);
  const [visitCounts, requests] = await Promise.all([
    visitCountsOf(client, tables.limitCounters, dayKeys),
    requestsSince(client, tables.requests, `${dayKeys[0]}T00:00:00.000Z`, pageSize),
  ]);
  return funnelOf(dayKeys, visitCounts, requests);
}
