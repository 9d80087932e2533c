/**
 * The unsent check: how many requests were saved more than 15 minutes ago and are still not sent
 * for a reason nobody was told of (core/data/delivery-status.ts, isUnsentUnnoticed): a send that
 * never came (the page closed, a function timed out), one stuck `sending` (SES accepted it but the
 * record could not be updated), one that failed for a fault of ours. Requests refused on purpose
 * (a cap, the budget, the pause) are listed by `npm run leads -- unsent` but not counted here.
 *
 * A paginated Query of the sparse unsent index (core/data/tables.ts, unsentIndex), never a Scan:
 * only requests still awaiting their e-mail are in it, and the key condition reads only those
 * saved 15 minutes ago or earlier. So a run reads the unsent requests, whatever the number of
 * leads: sent ones are never read (test/lambdas/unsent-check/unsent-check.test.ts counts the items
 * read). Its role may Query that index and nothing else of the table.
 */

import { paginateQuery, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isUnsentUnnoticed, unsentAfterMs, type DeliveryFields } from '../../core/data/delivery-status';
import { unsentIndex } from '../../core/data/tables';
import { ProductError } from '../runtime/errors';

export async function countUnnoticedUnsent(
  client: DynamoDBDocumentClient,
  tableName: string,
  now: Date,
): Promise<number> {
  let count = 0;
  const savedBefore = new Date(now.getTime() - unsentAfterMs).toISOString();
  try {
    for await (const page of paginateQuery(
      { client },
      {
        TableName: tableName,
        IndexName: unsentIndex.name,
        KeyConditionExpression: '#queue = :queue AND #requestedAt <= :savedBefore',
        // superseded_by: a request whose reader was mailed through a later one is not unsent.
        ProjectionExpression: '#status, #sent, #requestedAt, failure_code, superseded_by',
        ExpressionAttributeNames: {
          '#queue': unsentIndex.partitionKey,
          '#requestedAt': unsentIndex.sortKey,
          '#status': 'delivery_status',
          '#sent': 'cheat_sheet_sent',
        },
        ExpressionAttributeValues: { ':queue': unsentIndex.value, ':savedBefore': savedBefore },
      },
    )) {
      count += ((page.Items ?? []) as DeliveryFields[]).filter((item) => isUnsentUnnoticed(item, now)).length;
    }
  } catch (error) {
    throw new ProductError('storageUnavailable', 'DynamoDB Query failed', { cause: error });
  }
  return count;
}
