/**
 * SES's maximum send rate, kept across every sender at once: the send route's direct sends, the
 * queued sender's, and `npm run leads -- resend`. One item in the counters' table holds the time the
 * next send is due (`next_at`, epoch ms); taking a slot is one conditional UpdateItem that moves it
 * one interval (1000 / the rate, and a margin) on, only when it is due. A slot not due answers when it will be:
 * the route then hands the request to the queue, the sender waits for it. Spacing the calls, not
 * counting them per second, keeps two sends either side of a second's edge from making a burst.
 *
 * The rate is the account's own, read from SES (SESv2 GetAccount `SendQuota.MaxSendRate`), never
 * typed by hand: AWS raises it with the account's quota, and the product follows.
 */

import { GetAccountCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sendPaceItemId } from '../../core/data/tables';
import { ProductError } from '../runtime/errors';

/**
 * Each slot is a tenth longer than the rate's: the calls then keep under the rate at SES however
 * the network and the event loop shift them by a few tens of milliseconds (two calls 1/rate apart,
 * one delayed, the next on time, would land inside one second). The pace is 91% of the rate.
 */
export const paceMargin = 1.1;

export type PaceSlot = { readonly taken: true } | { readonly taken: false; readonly nextAt: number };

export interface SendPace {
  /** Takes the next send slot when it is due at `now`; else says when it will be (epoch ms). */
  take(now: Date): Promise<PaceSlot>;
}

export function sendPace(
  client: DynamoDBDocumentClient,
  tableName: string,
  maxSendRate: () => Promise<number>,
): SendPace {
  return {
    async take(now) {
      const intervalMs = Math.ceil((1000 * paceMargin) / (await maxSendRate()));
      const at = now.getTime();
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id: sendPaceItemId },
            UpdateExpression: 'SET next_at = :next',
            ConditionExpression: 'attribute_not_exists(next_at) OR next_at <= :now',
            ExpressionAttributeValues: { ':next': at + intervalMs, ':now': at },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { taken: true };
      } catch (error) {
        if (error instanceof Error && error.name === 'ConditionalCheckFailedException') {
          // DynamoDB returns the item that failed the condition; an emulator that does not, one interval on.
          const nextAt = (error as { Item?: { next_at?: { N?: string } } }).Item?.next_at?.N;
          return { taken: false, nextAt: nextAt === undefined ? at + intervalMs : Number(nextAt) };
        }
        throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem failed (the send pace)', { cause: error });
      }
    },
  };
}

/** SES's rate in the sandbox, the least any account has: the pace when GetAccount cannot be read. */
export const sandboxMaxSendRate = 1;
/** How long a read rate is kept: AWS raises a quota rarely, and one call per container and period is all it costs. */
export const maxSendRateCacheMs = 5 * 60_000;
/** How soon a failed read is tried again; meanwhile the sandbox's rate, which never exceeds the account's. */
const failedReadRetryMs = 60_000;

/** The account's `SendQuota.MaxSendRate` (e-mails a second), read once per period; the sandbox's 1 while unreadable. */
export function maxSendRateReader(
  ses: SESv2Client,
  onUnreadable: (error: unknown) => void = () => {},
  now: () => number = Date.now,
): () => Promise<number> {
  let cached: { rate: number; until: number } | undefined;
  return async () => {
    if (cached && now() < cached.until) return cached.rate;
    try {
      const { SendQuota } = await ses.send(new GetAccountCommand({}));
      const rate = SendQuota?.MaxSendRate;
      if (rate === undefined || !(rate > 0)) throw new Error(`GetAccount gave no positive MaxSendRate (${rate})`);
      cached = { rate, until: now() + maxSendRateCacheMs };
    } catch (error) {
      onUnreadable(error);
      cached = { rate: sandboxMaxSendRate, until: now() + failedReadRetryMs };
    }
    return cached.rate;
  };
}
