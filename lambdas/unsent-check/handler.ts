/**
 * The unsent check, invoked every 5 minutes by an EventBridge schedule (so each 5-minute window of
 * the delivery objective holds one count): counts the requests
 * still unsent 15 minutes after they were saved (unsent-check.ts) and reports the count as the
 * `UnsentRequests` metric (Powertools Metrics, embedded metric format: no API call), which the
 * delivery objective reads. A failed query fails the invocation: after Lambda's two retries it
 * lands in the event functions' on-failure queue, and the DeadLetters-FailedEvents ticket opens.
 */

import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { sendCheatSheetVariables } from '../../core/config/function-environment';
import { tableName } from '../../core/data/tables';
import { deliveryServices, metricsNamespace, unsentRequestsMetric } from '../../core/observability/product-metrics';
import { dynamoDb } from '../runtime/aws-clients';
import { createLogger } from '../runtime/logger';
import { countUnnoticedUnsent } from './unsent-check';

const logger = createLogger(deliveryServices.unsentCheck);
const metrics = new Metrics({ namespace: metricsNamespace, serviceName: deliveryServices.unsentCheck });

export async function handler(_event?: unknown, context?: Context): Promise<{ unsent: number }> {
  if (context) logger.addContext(context);
  // The contract's variable, defaulting to the table's fixed name (the local twin's).
  const table = process.env[sendCheatSheetVariables.tableName]?.trim() || tableName;
  const unsent = await countUnnoticedUnsent(dynamoDb, table, new Date());
  // Only when there is one: a custom metric costs 0.30 USD a month in the hours it is published,
  // and the objectives read a missing datapoint as none unsent (docs/operate.md).
  if (unsent > 0) {
    metrics.addMetric(unsentRequestsMetric, MetricUnit.Count, unsent);
    metrics.publishStoredMetrics();
  }
  if (unsent > 0) logger.warn('Requests still unsent 15 minutes after they were saved', { unsent });
  return { unsent };
}
