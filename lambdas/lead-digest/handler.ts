/**
 * The weekly digest, invoked by its EventBridge schedule (infra/constructs/lead-digest.ts): reads
 * the week's new requests and mails them to the author (lead-digest.ts). A failure fails the
 * invocation: Lambda retries it twice, then it lands in the event functions' on-failure queue and the
 * DeadLetters-FailedEvents ticket opens.
 */

import type { Context, ScheduledEvent } from 'aws-lambda';
import { deliveryServices } from '../../core/observability/product-metrics';
import { dynamoDb, ses } from '../runtime/aws-clients';
import { sesEmailSender } from '../mail/email-sender';
import { createLogger, describeErrorForLog } from '../runtime/logger';
import { countByDeliveryStatus, digestEmail, readLeadDigestConfig, requestsBetween, weekBefore } from './lead-digest';

/** The logs' `service`. */
export const leadDigestLogService = deliveryServices.leadDigest;

const logger = createLogger(leadDigestLogService);
const send = sesEmailSender(ses);

export async function handler(event: Partial<ScheduledEvent>, context?: Context): Promise<void> {
  if (context) logger.addContext(context);
  const config = readLeadDigestConfig(process.env);
  // The schedule's own time, so a retried invocation covers the same week.
  const week = weekBefore(event.time ? new Date(event.time) : new Date());
  try {
    const items = await requestsBetween(dynamoDb, config.tableName, week);
    const { messageId } = await send(digestEmail(items, week, config));
    // Counts only: the names and addresses are in the e-mail's attachment, never in the logs.
    logger.info('Weekly digest sent', {
      ...week,
      requests: items.length,
      byStatus: countByDeliveryStatus(items),
      messageId,
    });
  } catch (error) {
    logger.error('Weekly digest not sent', { ...week, ...describeErrorForLog(error) });
    throw error;
  }
}
