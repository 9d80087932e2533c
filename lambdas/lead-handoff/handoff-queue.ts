/** The hand-off queue and its dead-letter queue, through SQS. */

import {
  ChangeMessageVisibilityCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { HandoffMessage, HandoffQueue } from './lead-handoff';

/** SendMessageBatch's most entries per call. */
const batchSize = 10;

export function sqsHandoffQueue(client: SQSClient, queueUrl: string, deadLetterQueueUrl: string): HandoffQueue {
  return {
    async enqueue(messages: readonly HandoffMessage[]) {
      for (let start = 0; start < messages.length; start += batchSize) {
        const entries = messages.slice(start, start + batchSize).map((message, index) => ({
          Id: String(index),
          MessageBody: JSON.stringify(message),
        }));
        const { Failed = [] } = await client.send(
          new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }),
        );
        // The stream's batch is retried whole: a message that did get through is then queued twice,
        // which the item's `accepted` record and the providers' upserts make harmless.
        if (Failed.length > 0) throw new Error(`SQS refused ${Failed.length} hand-off message(s): ${Failed[0].Code}`);
      }
    },
    async retryLater(receiptHandle: string, seconds: number) {
      await client.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrl,
          ReceiptHandle: receiptHandle,
          VisibilityTimeout: seconds,
        }),
      );
    },
    async deadLetter(body: string, reason: string) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: deadLetterQueueUrl,
          MessageBody: body,
          MessageAttributes: { reason: { DataType: 'String', StringValue: reason } },
        }),
      );
    },
  };
}
