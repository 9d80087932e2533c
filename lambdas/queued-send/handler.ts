/**
 * The queued sender (infra/constructs/send-queue.ts): each message of the send queue is one request
 * the send route accepted while SES's rate had no slot for it, sent once at that rate
 * (lambdas/requests/queued-send.ts). A batch's messages go one after another, each waiting for its
 * slot; one to try again later (SES unavailable, or throttled until the invocation ran short) is
 * reported as a batch item failure and comes back after the queue's visibility timeout.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { catalogueFunctions } from '../../core/api/catalogue/functions';
import { deliveryServices, functionServices } from '../../core/observability/product-metrics';
import { dynamoDb, s3, ses } from '../runtime/aws-clients';
import { readQueuedSendConfig } from '../runtime/config';
import { createLogger, describeErrorForLog } from '../runtime/logger';
import { ProductMetrics } from '../runtime/metrics';
import { remainingTimeOf } from '../runtime/remaining-time';
import { cheatSheetRequestsTable } from '../requests/cheat-sheet-requests';
import { queuedAttemptsTable } from '../requests/queued-attempts';
import { sendQueued, type QueuedSendOutcome } from '../requests/queued-send';
import { parseQueuedSendMessage } from '../requests/send-queue';
import { loadCheatSheetPdf } from '../mail/cheat-sheet-pdf';
import { sesEmailSender } from '../mail/email-sender';
import { maxSendRateReader, sendPace } from '../mail/send-pace';

const logger = createLogger(deliveryServices.queuedSend);
// Its sends are the send route's outcome: counted under that service, as the form route's are.
const metrics = new ProductMetrics(functionServices.sendCheatSheet);
const sendEmail = sesEmailSender(ses);
const maxSendRate = maxSendRateReader(ses, (error) =>
  logger.warn("SES's maximum send rate could not be read: pacing at the sandbox's 1 a second", {
    ...describeErrorForLog(error),
  }),
);

export const handler = metrics.instrument(queuedSendHandler);

async function queuedSendHandler(event: SQSEvent, context?: Context): Promise<SQSBatchResponse> {
  if (context) logger.addContext(context);
  const config = readQueuedSendConfig();
  const remainingTimeMs = remainingTimeOf(context, catalogueFunctions.queuedSend.timeoutSeconds);
  const deps = {
    attempts: queuedAttemptsTable(dynamoDb, config.tableName),
    requests: cheatSheetRequestsTable(dynamoDb, config.tableName),
    loadPdf: () => loadCheatSheetPdf(s3, config.bucket, config.key),
    sendEmail,
    sendPace: sendPace(dynamoDb, config.limitCountersTableName, maxSendRate),
    senderEmail: config.senderEmail,
    attachmentFileName: config.attachmentFileName,
    configurationSetName: config.configurationSetName,
    now: () => new Date(),
    pause: (ms: number) => delay(ms),
    remainingTimeMs,
    onOutcomeUnknown: () => metrics.countNotice('SendOutcomeUnknown'),
    onNotRecorded: () => metrics.countNotice('SendNotRecorded'),
    logger,
  };
  const retry: string[] = [];
  const outcomes: Partial<Record<QueuedSendOutcome | 'unreadable', number>> = {};
  for (const record of event.Records ?? []) {
    const message = parseQueuedSendMessage(record.body);
    let outcome: QueuedSendOutcome | 'unreadable' = 'unreadable';
    try {
      if (message) outcome = await sendQueued(message, deps);
      else logger.error('A send queue message that is not a queued send: dropped', { messageId: record.messageId });
    } catch (error) {
      // The attempt could not even begin (the table unreachable): nothing was sent, so it comes back.
      logger.error('Queued send failed before SES: it comes back', { ...describeErrorForLog(error) });
      outcome = 'retry';
    }
    if (outcome === 'sent') metrics.countOutcome('CheatSheetSent');
    if (outcome === 'retry') retry.push(record.messageId);
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  logger.info('Queued sends done', { outcomes });
  return { batchItemFailures: retry.map((itemIdentifier) => ({ itemIdentifier })) };
}
