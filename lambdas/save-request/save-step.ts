/**
 * The save step, as both the save route and the form route take it: the honeypot, the function's
 * configuration, the domain function with its dependencies, the log line and the metric. Knows
 * nothing of the reply's shape.
 */

import { randomUUID } from 'node:crypto';
import type { Logger } from '@aws-lambda-powertools/logger';
import { dynamoDb } from '../shared/aws-clients';
import { cheatSheetRequestsTable } from '../shared/cheat-sheet-requests';
import { readSaveRequestConfig } from '../shared/config';
import { describeFailure } from '../shared/http-reply';
import { describeErrorForLog, emailDomainOf } from '../shared/logger';
import type { ProductMetrics } from '../shared/metrics';
import type { StepResult } from '../shared/step-result';
import { isHoneypotFilled, type CheatSheetRequest } from '../../core/api/request-schema';
import { saveRequest, type SaveRequestDependencies } from './save-request';

/** The domain function's dependencies, from the function's configuration: the one factory both routes use. */
export function saveRequestDependencies(): SaveRequestDependencies {
  const { tableName, requestRetentionDays } = readSaveRequestConfig();
  return {
    requests: cheatSheetRequestsTable(dynamoDb, tableName, { retentionDays: requestRetentionDays }),
    now: () => new Date(),
  };
}

export interface StepReporting {
  readonly logger: Logger;
  /** Counts under the save route's service, whichever route took the step. */
  readonly metrics: ProductMetrics;
}

export type SaveStepResult = StepResult<{ readonly id: string }>;

/** A failure of the save step (or of parsing before it): counted, logged, described. */
export function saveFailed(error: unknown, { logger, metrics }: StepReporting): SaveStepResult {
  metrics.countFailure(error);
  const failure = describeFailure(error);
  const log = failure.statusCode >= 500 ? logger.error.bind(logger) : logger.warn.bind(logger);
  log('Cheat-sheet request not saved', { statusCode: failure.statusCode, ...describeErrorForLog(error) });
  return { ok: false, failure };
}

export async function saveStep(request: CheatSheetRequest, reporting: StepReporting): Promise<SaveStepResult> {
  const { logger, metrics } = reporting;
  if (isHoneypotFilled(request)) {
    // A script filled the hidden field: it sees a success with an id like any other; nothing is stored.
    logger.warn('Honeypot filled in: answered as saved, nothing stored');
    metrics.countRefusal('HoneypotCaught');
    return { ok: true, id: randomUUID() };
  }
  try {
    const { id } = await saveRequest(request, saveRequestDependencies());
    logger.info('Cheat-sheet request saved', { requestItemId: id, emailDomain: emailDomainOf(request.email) });
    metrics.countOutcome('RequestSaved');
    return { ok: true, id };
  } catch (error) {
    return saveFailed(error, reporting);
  }
}
