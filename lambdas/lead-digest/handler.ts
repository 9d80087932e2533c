/**
 * The weekly digest, invoked by its EventBridge schedule (core/api/catalogue/background-functions.ts):
 * reads the week's new requests and the funnel of the two weeks before the digest's day, and mails
 * them to the author (lead-digest.ts, funnel-weeks.ts). A failure, of either read, fails the
 * invocation: Lambda retries it twice, then it lands in the event functions' on-failure queue and the
 * DeadLetters-FailedEvents ticket opens.
 */

import type { Context, ScheduledEvent } from 'aws-lambda';
import { deliveryServices } from '../../core/observability/product-metrics';
import { dynamoDb, ses } from '../runtime/aws-clients';
import { sesEmailSender } from '../mail/email-sender';
import { createLogger, describeErrorForLog } from '../runtime/logger';
import { readFunnel } from '../funnel/funnel-report';
import { countByDeliveryStatus, digestEmail, readLeadDigestConfig, requestsBetween, weekBefore } from './lead-digest';
import { digestFunnelDays, funnelEndOf, funnelWeeks } from './funnel-weeks';

/** The logs' `service`. */
export const leadDigestLogService = deliveryServices.leadDigest;

const logger = createLogger(leadDigestLogService);
const send = sesEmailSender(ses);

export async function handler(event: Partial<ScheduledEvent>, context?: Context): Promise<void> {
  if (context) logger.addContext(context);
  const config = readLeadDigestConfig(process.env);
  // The schedule's own time, so a retried invocation covers the same week.
  const time = event.time ? new Date(event.time) : new Date();
  const week = weekBefore(time);
  try {
    const [items, funnelDays] = await Promise.all([
      requestsBetween(dynamoDb, config.tableName, week),
      readFunnel(
        dynamoDb,
        { requests: config.tableName, limitCounters: config.limitCountersTableName },
        { days: digestFunnelDays, now: funnelEndOf(time) },
      ),
    ]);
    const funnel = funnelWeeks(funnelDays);
    const { messageId } = await send(digestEmail(items, week, config, funnel));
    // Counts only: the names and addresses are in the e-mail's attachment, never in the logs.
    logger.info('Weekly digest sent', {
      ...week,
      requests: items.length,
      byStatus: countByDeliveryStatus(items),
      funnel: { thisWeek: funnel.thisWeek.total, weekBefore: funnel.weekBefore.total },
      messageId,
    });
  } catch (error) {
    logger.error('Weekly digest not sent', { ...week, ...describeErrorForLog(error) });
    throw error;
  }
}
