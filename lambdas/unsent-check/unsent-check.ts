/**
 * The unsent check: how many requests were saved more than 15 minutes ago and are still not sent
 * for a reason nobody was told of (core/data/delivery-status.ts, isUnsentUnnoticed): a send that
 * never came (the page closed, a function timed out), one stuck `sending` (SES accepted it but the
 * record could not be updated), one that failed for a fault of ours. Requests refused on purpose
 * (a cap, the budget, the pause) are listed by `npm run leads -- unsent` but not counted here.
 *
 * A paginated Scan with a filter, every 15 minutes. Why a Scan and not an index of unsent items: a
 * sparse index would copy every state change of every request (a second write each); the Scan
 * reads the whole table, which at this product's size costs little: about 0.5 read units per 4 KB,
 * so 10,000 requests (~4 MB) are ~500 read units a run, ~1.4 million a month, cents at on-demand
 * prices. The filter cuts what comes back, not what is read.
 */

import { paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isUnsentUnnoticed, type DeliveryFields } from '../../core/data/delivery-status';
import { ProductError } from '../runtime/errors';

/** The items a send still owes, read without their names or addresses. */
const unsentFilter =
  '#status IN (:requested, :sending, :failed) OR (attribute_not_exists(#status) AND #sent = :unsent)';

export async function countUnnoticedUnsent(
  client: DynamoDBDocumentClient,
  tableName: string,
  now: Date,
): Promise<number> {
  let count = 0;
  try {
    for await (const page of paginateScan(
      { client },
      {
        TableName: tableName,
        FilterExpression: unsentFilter,
        // superseded_by: a request whose reader was mailed through a later one is not unsent.
        ProjectionExpression: '#status, #sent, requested_at, failure_code, superseded_by',
        ExpressionAttributeNames: { '#status': 'delivery_status', '#sent': 'cheat_sheet_sent' },
        ExpressionAttributeValues: {
          ':requested': 'requested',
          ':sending': 'sending',
          ':failed': 'failed',
          ':unsent': false,
        },
      },
    )) {
      count += ((page.Items ?? []) as DeliveryFields[]).filter((item) => isUnsentUnnoticed(item, now)).length;
    }
  } catch (error) {
    throw new ProductError('storageUnavailable', 'DynamoDB Scan failed', { cause: error });
  }
  return count;
}
