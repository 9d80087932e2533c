/**
 * The request item as the hand-off's outbox: the lead is read from it (consistently: a request
 * saved a moment ago is there), and each attempt's outcome is written back on it, in
 * `mail_provider_handoff` (core/data/mail-provider.ts). Every write requires the item to exist, so
 * an erased request is never written again; a write other than `accepted` never replaces an
 * `accepted` one, so a late duplicate cannot undo it.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { handoffAttribute, type HandoffRecord } from '../../core/data/mail-provider';
import { partitionKey, type CheatSheetRequestItem } from '../../core/data/tables';

export type HandoffItem = CheatSheetRequestItem & { readonly [handoffAttribute]?: HandoffRecord };

export interface HandoffRecords {
  /** The request, or undefined when there is none (never saved, or erased since). */
  find(id: string): Promise<HandoffItem | undefined>;
  /** Records the outcome; false when the item is gone, or already accepted and `record` is not. */
  record(id: string, record: HandoffRecord): Promise<boolean>;
}

export function handoffRecordsTable(client: DynamoDBDocumentClient, tableName: string): HandoffRecords {
  return {
    async find(id) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: { [partitionKey]: id }, ConsistentRead: true }),
      );
      return Item as HandoffItem | undefined;
    },
    async record(id, record) {
      const onlyIfNotAccepted =
        record.result === 'accepted' ? '' : ' AND (attribute_not_exists(#handoff) OR #handoff.#result <> :accepted)';
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { [partitionKey]: id },
            UpdateExpression: 'SET #handoff = :record',
            ConditionExpression: `attribute_exists(#id)${onlyIfNotAccepted}`,
            ExpressionAttributeNames: {
              '#id': partitionKey,
              '#handoff': handoffAttribute,
              ...(onlyIfNotAccepted && { '#result': 'result' }),
            },
            ExpressionAttributeValues: { ':record': record, ...(onlyIfNotAccepted && { ':accepted': 'accepted' }) },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
  };
}
