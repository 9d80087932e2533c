/**
 * The save step, as both the save route and the form route take it: identifying the client
 * (behind CloudFront, refusing a request that did not come through it, before anything is
 * stored), the honeypot, the function's configuration, the domain function with its dependencies
 * (the save limits), the log line and the metric. Knows nothing of the reply's shape.
 */

import { randomUUID } from 'node:crypto';
import type { Logger } from '@aws-lambda-powertools/logger';
import { dynamoDb, secretsManager } from '../runtime/aws-clients';
import { cheatSheetRequestsTable } from './cheat-sheet-requests';
import { clientKeysOf, type ClientKeys } from '../limits/client-address';
import { suppressionList } from '../mail/suppressions';
import { addressKeySource } from '../limits/address-key';
import { readSaveRequestConfig, type SaveRequestFunctionConfig } from '../runtime/config';
import type { ApiRequest } from '../http/http-request';
import { loadOriginSecret } from '../http/origin-secret';
import { isCanaryRequest } from '../http/canary-request';
import { hourlyWindow, rollingCounter } from '../limits/rolling-counter';
import { describeFailure } from '../http/http-reply';
import { describeErrorForLog, emailDomainOf } from '../runtime/logger';
import type { ProductMetrics } from '../runtime/metrics';
import type { StepResult } from './step-result';
import { isHoneypotFilled, type CheatSheetRequest } from '../../core/api/request-schema';
import { jsonReplyOf } from '../../core/api/catalogue/routes';
import type { RequestSavedBody } from '../../core/api/reply-bodies';
import type { JSONValue } from '@aws-lambda-powertools/commons/types';
import type { KeyedOutcome } from './idempotency';
import { saveRequest, type SaveRequestDependencies } from './save-request';

/** The domain function's dependencies, from the function's configuration: the one factory both routes use. */
export function saveRequestDependencies(
  config: SaveRequestFunctionConfig,
  clientKeys: ClientKeys,
  logger: Logger,
): SaveRequestDependencies {
  const addressKey = addressKeySource(config.clientAddress, (arn) => loadOriginSecret(secretsManager, arn));
  return {
    requests: cheatSheetRequestsTable(dynamoDb, config.tableName, {
      retentionDays: config.requestRetentionDays,
      mailProvider: config.mailProvider,
    }),
    suppressions: suppressionList(dynamoDb, config.limitCountersTableName, addressKey),
    hourlySaveCapCounter: rollingCounter(dynamoDb, config.limitCountersTableName, hourlyWindow),
    clientKey: clientKeys.client,
    networkKey: clientKeys.network,
    clientHourlySaveCap: config.clientHourlySaveCap,
    networkHourlySaveCap: config.networkHourlySaveCap,
    now: () => new Date(),
    logger,
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

/**
 * `apiRequest` is the request as the handler read it: the client's origin (address, origin secret)
 * is in it. `submissionKey` is the submission's `Idempotency-Key`: stored on the request, whose id
 * it gives, so the send of the same submission finds it by key.
 */
export async function saveStep(
  request: CheatSheetRequest,
  apiRequest: ApiRequest,
  reporting: StepReporting,
  submissionKey?: string,
): Promise<SaveStepResult> {
  const { logger, metrics } = reporting;
  try {
    const config = readSaveRequestConfig();
    // Behind CloudFront, a request without the origin secret stops here (403), before anything is stored.
    const clientKeys = await clientKeysOf(apiRequest.client, config.clientAddress, (arn) =>
      loadOriginSecret(secretsManager, arn),
    );
    if (isHoneypotFilled(request)) {
      // A script filled the hidden field: it sees a success with an id like any other; nothing is stored.
      logger.warn('Honeypot filled in: answered as saved, nothing stored');
      metrics.countRefusal('HoneypotCaught');
      return { ok: true, id: randomUUID() };
    }
    const canary = await isCanaryRequest(
      apiRequest,
      request.email,
      config.clientAddress,
      (arn) => loadOriginSecret(secretsManager, arn),
      new Date(),
    );
    const { id } = await saveRequest(
      request,
      { ...saveRequestDependencies(config, clientKeys, logger), canary },
      submissionKey,
    );
    if (canary) {
      // The canary is no reader: no product metric counts it (the objectives, the funnel, the dashboard).
      logger.info('Canary request saved', { requestItemId: id });
      return { ok: true, id };
    }
    logger.info('Cheat-sheet request saved', { requestItemId: id, emailDomain: emailDomainOf(request.email) });
    metrics.countOutcome('RequestSaved');
    return { ok: true, id };
  } catch (error) {
    return saveFailed(error, reporting);
  }
}

/** The save route's reply to a step's result; only a saved request is kept under its key. */
export function saveReplyOf(result: SaveStepResult): KeyedOutcome {
  const reply = jsonReplyOf('saveRequest');
  if (result.ok) {
    return {
      reply: { statusCode: reply.success.status, body: { id: result.id } satisfies RequestSavedBody },
      keep: true,
    };
  }
  return {
    reply: { statusCode: result.failure.statusCode, body: reply.failureBody.of(result.failure) as JSONValue },
    keep: false,
  };
}
