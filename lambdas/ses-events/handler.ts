/**
 * The SES events function, invoked by an EventBridge rule on the default bus (`source: aws.ses`,
 * delivery, bounce and complaint): records each event on its request (ses-events.ts) and logs
 * what it did. A storage failure fails the invocation, so Lambda's asynchronous retries (two) try
 * again; every write is idempotent, so a retried or repeated event changes nothing twice.
 */

import type { Context, EventBridgeEvent } from 'aws-lambda';
import { deliveryServices } from '../../core/observability/product-metrics';
import { dynamoDb } from '../runtime/aws-clients';
import { createLogger } from '../runtime/logger';
import { suppressionList } from '../mail/suppressions';
import { deliveryRecordsTable } from './delivery-records';
import { readSesEventsConfig } from './ses-events-config';
import { recordSesEvent, type SesEventRecord } from './ses-events';

const logger = createLogger(deliveryServices.sesEvents);

export async function handler(event: EventBridgeEvent<string, SesEventRecord>, context?: Context): Promise<void> {
  if (context) logger.addContext(context);
  const config = readSesEventsConfig(process.env);
  const result = await recordSesEvent(event.detail ?? {}, {
    records: deliveryRecordsTable(dynamoDb, config.tableName),
    suppressions: suppressionList(dynamoDb, config.limitCountersTableName),
    now: () => new Date(),
  });
  // No address in the log: the request's id finds the record.
  logger.info('SES event handled', {
    detailType: event['detail-type'],
    sesMessageId: event.detail?.mail?.messageId,
    ...result,
  });
}
