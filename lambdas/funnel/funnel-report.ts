/**
 * Reads the funnel of the last days: the visit counts (one BatchGetItem per 100 days from the limit
 * counters' table) and the requests saved since the first of them (a filtered Scan of the requests'
 * table, as the digest's, the canary's left out), put together by `funnelOf` (core/data/funnel.ts).
 * The weekly digest and `npm run leads -- funnel` read it alike.
 */

import { BatchGetCommand, paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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

/** BatchGetItem's most keys a call. */
const batchKeys = 100;

async function visitCountsOf(
  client: DynamoDBDocumentClient,
  tableName: string,
  days: readonly string[],
): Promise<FunnelDayItem[]> {
  const items: FunnelDayItem[] = [];
  for (let start = 0; start < days.length; start += batchKeys) {
    let keys: Record<string, unknown>[] = days
      .slice(start, start + batchKeys)
      .map((day) => ({ [limitCountersPartitionKey]: funnelDayId(day) }));
    // DynamoDB may leave keys unprocessed under load: they are asked for again.
    while (keys.length > 0) {
      const { Responses, UnprocessedKeys } = await client.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys } } }),
      );
      items.push(...((Responses?.[tableName] ?? []) as FunnelDayItem[]));
      keys = (UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
    }
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
