/**
 * The queued sender's hold on a request (queued-send.ts). A request the send route handed to the
 * queue is `sending` under the route's token, with no attempt yet. The sender begins its attempt
 * with one conditional UpdateItem (`send_attempt_at`, only while the token holds it and no attempt
 * began), which also returns the item: the reader's name and address never ride on the queue. A
 * redelivered message (SQS delivers at least once, or the sender stopped after SES accepted) then
 * finds the attempt begun and sends nothing. An attempt that provably sent nothing (SES throttled
 * it until the invocation ran short) is ended, so the message's next delivery may try again.
 */

import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CheatSheetRequestItem } from '../../core/data/tables';
import { ProductError } from '../runtime/errors';
import { isConditionFailure } from './request-items';

export interface QueuedAttempts {
  /** Begins the one attempt of `token`'s request: the item, or undefined when it began before or the token no longer holds it. */
  begin(id: string, token: string, at: Date): Promise<CheatSheetRequestItem | undefined>;
  /** Ends an attempt that sent nothing, so a later delivery of its message may begin again. */
  end(id: string, token: string, beganAt: Date): Promise<boolean>;
}

export function queuedAttemptsTable(client: DynamoDBDocumentClient, tableName: string): QueuedAttempts {
  return {
    async begin(id, token, at) {
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id },
            UpdateExpression: 'SET send_attempt_at = :at',
            ConditionExpression: 'send_token = :token AND #status = :sending AND attribute_not_exists(send_attempt_at)',
            ExpressionAttributeNames: { '#status': 'delivery_status' },
            ExpressionAttributeValues: { ':at': at.toISOString(), ':token': token, ':sending': 'sending' },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes as CheatSheetRequestItem;
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem failed (begin the attempt)', {
          cause: error,
        });
      }
    },
    async end(id, token, beganAt) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id },
            UpdateExpression: 'REMOVE send_attempt_at',
            ConditionExpression: 'send_token = :token AND #status = :sending AND send_attempt_at = :at',
            ExpressionAttributeNames: { '#status': 'delivery_status' },
            ExpressionAttributeValues: { ':at': beganAt.toISOString(), ':token': token, ':sending': 'sending' },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem failed (end the attempt)', { cause: error });
      }
    },
  };
}
