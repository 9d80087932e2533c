/**
 * The unsent check, invoked every 5 minutes by an EventBridge schedule: counts the requests that
 * newly went unsent, 15 minutes after their save, since the previous tick (unsent-check.ts: each
 * request once, in the run whose 5-minute slice holds its save) and reports the count as the
 * `UnsentRequests` metric, summed by the delivery objective (Powertools Metrics, embedded metric
 * format: no API call). A failed query fails the invocation: Lambda retries it twice with the
 * same event (so the same slice), then it lands in the event functions' on-failure queue, and the
 * DeadLetters-FailedEvents ticket opens.
 */

import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { sendCheatSheetVariables } from '../../core/config/function-environment';
import { tableName } from '../../core/data/tables';
import { deliveryServices, metricsNamespace, unsentRequestsMetric } from '../../core/observability/product-metrics';
import { dynamoDb } from '../runtime/aws-clients';
import { createLogger } from '../runtime/logger';
import { countNewlyUnsent, tickOf, unsentCheckSlice } from './unsent-check';

const logger = createLogger(deliveryServices.unsentCheck);
const metrics = new Metrics({ namespace: metricsNamespace, serviceName: deliveryServices.unsentCheck });

export async function handler(event?: unknown, context?: Context): Promise<{ unsent: number }> {
  if (context) logger.addContext(context);
  // The contract's variable, defaulting to the table's fixed name (the local twin's).
  const table = process.env[sendCheatSheetVariables.tableName]?.trim() || tableName;
  const tick = tickOf(event, new Date());
  const unsent = await countNewlyUnsent(dynamoDb, table, tick);
  // Only when there is one: a custom metric costs 0.30 USD a month in the hours it is published,
  // and the objectives read a missing datapoint as none unsent (docs/operate.md).
  if (unsent > 0) {
    metrics.addMetric(unsentRequestsMetric, MetricUnit.Count, unsent);
    metrics.publishStoredMetrics();
    const { from, before } = unsentCheckSlice(tick);
    logger.warn('Requests still unsent 15 minutes after they were saved', {
      unsent,
      savedFrom: from.toISOString(),
      savedBefore: before.toISOString(),
    });
  }
  return { unsent };
}
