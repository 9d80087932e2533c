/**
 * The SES events function, invoked by an EventBridge rule on the default bus (`source: aws.ses`,
 * delivery, bounce and complaint): records each event on its request (ses-events.ts) and logs
 * what it did. A storage failure fails the invocation, so Lambda's asynchronous retries (two) try
 * again; every write is idempotent, so a retried or repeated event changes nothing twice. A
 * suppression's id is keyed with the deployment's secret (the origin secret, read once per
 * container, and only for a bounce or a complaint).
 */

import type { Context, EventBridgeEvent } from 'aws-lambda';
import { deliveryServices } from '../../core/observability/product-metrics';
import { dynamoDb, secretsManager } from '../runtime/aws-clients';
import { loadOriginSecret } from '../http/origin-secret';
import { addressKeySource } from '../limits/address-key';
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
    suppressions: suppressionList(dynamoDb, config.limitCountersTableName, () =>
      addressKeySource(config.deploymentSecret(), (arn) => loadOriginSecret(secretsManager, arn))(),
    ),
    now: () => new Date(),
  });
  // No address in the log: the request's id finds the record.
  logger.info('SES event handled', {
    detailType: event['detail-type'],
    sesMessageId: event.detail?.mail?.messageId,
    ...result,
  });
}
