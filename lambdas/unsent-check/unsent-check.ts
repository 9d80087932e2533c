/**
 * The unsent check: how many requests newly crossed the 15-minute mark unsent since the previous
 * run, for a reason nobody was told of (core/data/delivery-status.ts, isUnsentUnnoticed): a send
 * that never came (the page closed, a function timed out), one stuck `sending` (SES accepted it but
 * the record could not be updated), one that failed for a fault of ours. Requests refused on
 * purpose (a cap, the budget, the pause) are listed by `npm run leads -- unsent` but not counted.
 *
 * Each request is counted once, by the run whose slice holds its save: a run at tick T counts the
 * requests saved in [T - 20 min, T - 15 min) that are unsent at T, and the schedule's ticks are 5
 * minutes apart, so the slices tile time. So the delivery objective's window holds, as bad events,
 * the requests saved in about the same window that went unsent (a stuck request is one bad event,
 * in the windows it belongs to, not one more every 5 minutes for as long as it stays stuck). T is
 * the tick's own time (the scheduled event's `time`), not the clock: Lambda's retries of a failed
 * run carry the same event, so they count the same slice, and a run started late counts its own.
 * A tick whose every retry fails leaves its slice uncounted (the DeadLetters-FailedEvents ticket
 * opens); EventBridge delivering one tick twice (at least once) counts its slice twice: both rare,
 * and neither can page on its own (minimumEvents).
 *
 * A paginated Query of the sparse unsent index (core/data/tables.ts, unsentIndex), never a Scan:
 * only requests still awaiting their e-mail are in it, and the key condition reads only those
 * saved in the slice. So a run reads a few items, whatever the number of leads or of old unsent
 * requests (test/lambdas/unsent-check/unsent-check.test.ts counts the items read). Its role may
 * Query that index and nothing else of the table.
 */

import { paginateQuery, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isUnsentUnnoticed, unsentAfterMs, type DeliveryFields } from '../../core/data/delivery-status';
import { unsentIndex } from '../../core/data/tables';
import { backgroundFunctions } from '../../core/api/catalogue/background-functions';
import { ProductError } from '../runtime/errors';

/** The schedule's period (core/api/catalogue/background-functions.ts): one slice a tick. */
export const unsentCheckEveryMinutes = backgroundFunctions.unsentCheck.trigger.schedule.everyMinutes;

/** The saves a run at `tick` counts: [from, before), the schedule's period ending 15 minutes before the tick. */
export function unsentCheckSlice(tick: Date): { readonly from: Date; readonly before: Date } {
  // Whole minutes: the schedule's precision, so a tick's seconds of delivery delay move no slice.
  const minute = Math.floor(tick.getTime() / 60_000) * 60_000;
  const before = new Date(minute - unsentAfterMs);
  return { from: new Date(before.getTime() - unsentCheckEveryMinutes * 60_000), before };
}

/** The tick a run counts for: its scheduled event's `time`, or (a run invoked by hand) `now`. */
export function tickOf(event: unknown, now: Date): Date {
  const time = (event as { time?: unknown } | null | undefined)?.time;
  const parsed = typeof time === 'string' ? new Date(time) : undefined;
  return parsed && Number.isFinite(parsed.getTime()) ? parsed : now;
}

/** Of `items`, those a run at `tick` counts: saved in its slice and unsent, unnoticed, at the tick. */
export function newlyUnsentOf<T extends DeliveryFields>(items: readonly T[], tick: Date): T[] {
  const { from, before } = unsentCheckSlice(tick);
  return items.filter((item) => {
    const savedAt = Date.parse(item.requested_at ?? '');
    return savedAt >= from.getTime() && savedAt < before.getTime() && isUnsentUnnoticed(item, tick);
  });
}

export async function countNewlyUnsent(client: DynamoDBDocumentClient, tableName: string, tick: Date): Promise<number> {
  let count = 0;
  const { from, before } = unsentCheckSlice(tick);
  try {
    for await (const page of paginateQuery(
      { client },
      {
        TableName: tableName,
        IndexName: unsentIndex.name,
        // BETWEEN includes its end: newlyUnsentOf leaves out a save at `before` exactly (the next slice's).
        KeyConditionExpression: '#queue = :queue AND #requestedAt BETWEEN :from AND :before',
        // superseded_by: a request whose reader was mailed through a later one is not unsent.
        ProjectionExpression: '#status, #sent, #requestedAt, failure_code, superseded_by',
        ExpressionAttributeNames: {
          '#queue': unsentIndex.partitionKey,
          '#requestedAt': unsentIndex.sortKey,
          '#status': 'delivery_status',
          '#sent': 'cheat_sheet_sent',
        },
        ExpressionAttributeValues: {
          ':queue': unsentIndex.value,
          ':from': from.toISOString(),
          ':before': before.toISOString(),
        },
      },
    )) {
      count += newlyUnsentOf((page.Items ?? []) as DeliveryFields[], tick).length;
    }
  } catch (error) {
    throw new ProductError('storageUnavailable', 'DynamoDB Query failed', { cause: error });
  }
  return count;
}
