/**
 * What an SES event changes on a request's item: one conditional UpdateItem by the request's id
 * (the `request_id` message tag), so the function needs neither an index nor a read.
 *
 * The condition keeps the record true whatever order the events come in, and however often
 * (EventBridge delivers at least once): the event's message must be the item's (or the item has
 * none yet: a send recorded `unknown` or still `sending`, which the event now proves went out),
 * and the state may only move forward: `delivered` after a send, `bounced` or `complained` after a
 * send or a delivery. An event that changes nothing is reported, not thrown.
 */

import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { statusTimeAttributes, type DeliveryStatus } from '../../core/data/delivery-status';
import { unsentIndex } from '../../core/data/tables';
import { ProductError } from '../runtime/errors';

/** The states an SES event writes. */
export type EventStatus = Extract<DeliveryStatus, 'delivered' | 'bounced' | 'complained'>;

/** The states each event may follow. */
export const priorStatuses: Readonly<Record<EventStatus, readonly DeliveryStatus[]>> = {
  delivered: ['sending', 'sent', 'unknown'],
  bounced: ['sending', 'sent', 'delivered', 'unknown'],
  complained: ['sending', 'sent', 'delivered', 'unknown'],
};

export interface DeliveryRecords {
  /** True when the item changed; false when the event is stale, repeated, or for no item of ours. */
  record(requestId: string, messageId: string, status: EventStatus, at: Date, sentAt: Date): Promise<boolean>;
}

export function deliveryRecordsTable(client: DynamoDBDocumentClient, tableName: string): DeliveryRecords {
  return {
    async record(requestId, messageId, status, at, sentAt) {
      const priors = priorStatuses[status];
      const priorValues = Object.fromEntries(priors.map((prior, index) => [`:prior${index}`, prior]));
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id: requestId },
            // An event proves SES accepted the message: an `unknown` send is sent after all.
            UpdateExpression:
              'SET #status = :status, status_at = :at, #statusTime = :at, ses_message_id = :messageId, cheat_sheet_sent = :sent, sent_at = if_not_exists(sent_at, :sentAt) REMOVE #queue',
            ConditionExpression: `attribute_exists(id) AND (attribute_not_exists(ses_message_id) OR ses_message_id = :messageId) AND #status IN (${Object.keys(priorValues).join(', ')})`,
            // The event proves it went out: no longer in the unsent index.
            ExpressionAttributeNames: {
              '#status': 'delivery_status',
              '#statusTime': statusTimeAttributes[status],
              '#queue': unsentIndex.partitionKey,
            },
            ExpressionAttributeValues: {
              ':status': status,
              ':at': at.toISOString(),
              ':messageId': messageId,
              ':sent': true,
              ':sentAt': sentAt.toISOString(),
              ...priorValues,
            },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
        throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem failed', { cause: error });
      }
    },
  };
}
