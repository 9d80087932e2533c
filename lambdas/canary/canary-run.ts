/**
 * One run of the canary, from its schedule's time: its name, whether it sends, which earlier run's
 * e-mail it confirms, and that confirmation, read from the requests table (a consistent GetItem of
 * the request the earlier run's key names).
 */

import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { canaryCadence } from '../../core/config/canary-cadence';
import type { CheatSheetRequestItem } from '../../core/data/tables';
import { canarySubmissionKey, type CanaryStep } from '../canary-check/canary-check';
import { submissionItemId } from '../requests/request-items';

/** The canary's own variables: where the site is (the stage's `siteUrl`, else the distribution's). */
export const canaryVariables = {
  siteUrl: 'CANARY_SITE_URL',
  tableName: 'TABLE_NAME',
} as const;

const minuteMs = 60_000;

/** The run's slot: its schedule's time, to the check's cadence (a late start keeps its slot). */
export function canarySlot(at: Date): Date {
  const step = canaryCadence.checkEveryMinutes * minuteMs;
  return new Date(Math.floor(at.getTime() / step) * step);
}

/** `20261128t2305`: the run's name, in its mailbox and its key. */
export const canaryRunName = (slot: Date) => slot.toISOString().slice(0, 16).replace(/[-:]/g, '').toLowerCase();

/** Whether the slot's run sends: one in `sendEveryMinutes`. */
export const sendsAt = (slot: Date) => slot.getTime() % (canaryCadence.sendEveryMinutes * minuteMs) === 0;

/** The latest sending slot before `slot`. */
export function earlierSendingSlot(slot: Date): Date {
  const step = canaryCadence.sendEveryMinutes * minuteMs;
  return new Date(Math.floor((slot.getTime() - 1) / step) * step);
}

/**
 * Whether the latest earlier send reached `delivered`: the runs since the last sending slot are
 * read newest first (a run after a failed send sends again), each a consistent GetItem, and the
 * first whose request was sent is judged. None is no failure (the canary was off then, or that run
 * failed and said so); `sent` is fine for `deliveredWithinMinutes`.
 */
export async function earlierDelivery(
  client: DynamoDBDocumentClient,
  tableName: string,
  slot: Date,
): Promise<Omit<CanaryStep, 'name'>> {
  const sendingSlot = earlierSendingSlot(slot);
  const step = canaryCadence.checkEveryMinutes * minuteMs;
  for (let at = slot.getTime() - step; at >= sendingSlot.getTime(); at -= step) {
    const run = canaryRunName(new Date(at));
    const { Item } = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: { id: submissionItemId(canarySubmissionKey(run)) },
        ConsistentRead: true,
      }),
    );
    const item = Item as CheatSheetRequestItem | undefined;
    // Saved without a send (the runs between sends): not what is judged.
    if (!item || (item.delivery_status ?? 'requested') === 'requested') continue;
    const status = item.delivery_status ?? 'unknown';
    const minutes = (slot.getTime() - at) / minuteMs;
    const ok = status === 'delivered' || (status === 'sent' && minutes < canaryCadence.deliveredWithinMinutes);
    return { ok, detail: `run ${run}'s e-mail is ${status} ${minutes} minutes after it was sent` };
  }
  return {
    ok: true,
    detail: `no e-mail sent since ${canaryRunName(sendingSlot)} (the canary off, or that run failed)`,
  };
}
