/**
 * The pause function, invoked by the alarm topic (SNS): for each notification, pauses sending
 * for the product's configuration set when it is one of the reputation alarms going to ALARM
 * (pause-sending.ts), and logs what it did or why it did nothing. A failed SES call fails the
 * invocation, so Lambda's asynchronous retries (two) try again; a message that is not an alarm
 * notification is logged and skipped, since no retry would change it.
 */

import type { SNSEvent, Context } from 'aws-lambda';
import { ses } from '../runtime/aws-clients';
import { createLogger, describeErrorForLog } from '../runtime/logger';
import { alarmNotificationOf, pauseConfigurationSet, pauseDecisionFor, readPauseSendingConfig } from './pause-sending';

/** The logs' `service`. */
export const pauseSendingLogService = 'pause-sending';

const logger = createLogger(pauseSendingLogService);

export async function handler(event: SNSEvent, context?: Context): Promise<void> {
  if (context) logger.addContext(context);
  const config = readPauseSendingConfig(process.env);
  for (const record of event.Records ?? []) {
    const notification = alarmNotificationOf(record.Sns?.Message ?? '');
    if (notification === undefined) {
      logger.warn('Not a CloudWatch alarm notification: nothing done', { messageId: record.Sns?.MessageId });
      continue;
    }
    const decision = pauseDecisionFor(notification, config);
    if (decision !== 'pause') {
      logger.info('Alarm notification: sending left as it is', { ...notification, decision });
      continue;
    }
    try {
      await pauseConfigurationSet(ses, config.configurationSetName);
    } catch (error) {
      logger.error('Could not pause sending', {
        ...notification,
        configurationSetName: config.configurationSetName,
        ...describeErrorForLog(error),
      });
      throw error;
    }
    logger.warn('Sending paused for the configuration set: resume with `npm run sending -- resume`', {
      ...notification,
      configurationSetName: config.configurationSetName,
    });
  }
}
