/**
 * The lead hand-off function, with two event sources (infra/constructs/lead-handoff.ts): the
 * requests table's stream, filtered to new requests carrying a consent, whose ids it puts on the
 * hand-off queue; and that queue, each message one attempt to hand the lead to the author's mail
 * provider (lead-handoff.ts). A message to try again later is reported as a batch item failure,
 * its visibility already set to the next attempt's time.
 */

import type { Context, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { deliveryServices } from '../../core/observability/product-metrics';
import { dynamoDb, secretsManager, sqs } from '../runtime/aws-clients';
import { createLogger } from '../runtime/logger';
import { mailProviderClient } from '../mail-provider/mail-provider-client';
import { readLeadHandoffConfig, type LeadHandoffConfig } from './handoff-config';
import { sqsHandoffQueue } from './handoff-queue';
import { handoffRecordsTable } from './handoff-records';
import { enqueueableLeads, handOffMessages, type HandoffQueue } from './lead-handoff';
import { providerKeyReader } from '../mail-provider/provider-key';

const logger = createLogger(deliveryServices.leadHandoff);

/** Built on the first invocation (a configuration error fails the invocation, with its message). */
let wiring: { config: LeadHandoffConfig; providerKey: () => Promise<string>; queue: HandoffQueue } | undefined;

function wired() {
  if (!wiring) {
    const config = readLeadHandoffConfig(process.env);
    wiring = {
      config,
      providerKey: providerKeyReader(secretsManager, config.secretArn),
      queue: sqsHandoffQueue(sqs, config.queueUrl, config.deadLetterQueueUrl),
    };
  }
  return wiring;
}

/** The stream's records come from `aws:dynamodb`, the queue's from `aws:sqs`. */
function isStreamEvent(event: SQSEvent | DynamoDBStreamEvent): event is DynamoDBStreamEvent {
  return event.Records?.[0]?.eventSource === 'aws:dynamodb';
}

export async function handler(
  event: SQSEvent | DynamoDBStreamEvent,
  context?: Context,
): Promise<SQSBatchResponse | void> {
  if (context) logger.addContext(context);
  const { config, providerKey, queue } = wired();
  if (isStreamEvent(event)) {
    const messages = enqueueableLeads(event.Records);
    await queue.enqueue(messages);
    logger.info('Leads queued for the mail provider', { leads: messages.length });
    return;
  }
  const { retry, outcomes } = await handOffMessages(
    (event.Records ?? []).map((record) => ({
      messageId: record.messageId,
      receiptHandle: record.receiptHandle,
      body: record.body,
      receiveCount: Number(record.attributes.ApproximateReceiveCount) || 1,
    })),
    {
      provider: config.provider,
      records: handoffRecordsTable(dynamoDb, config.tableName),
      client: async () =>
        mailProviderClient({
          provider: config.provider,
          list: config.list,
          webhookUrl: config.webhookUrl,
          doubleOptIn: config.doubleOptIn,
          key: await providerKey(),
        }),
      queue,
      now: () => new Date(),
      logger,
    },
  );
  logger.info('Hand-off batch done', { outcomes });
  return { batchItemFailures: retry.map((itemIdentifier) => ({ itemIdentifier })) };
}
