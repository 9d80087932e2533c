/**
 * POST /api/cheat-sheet-requests (API Gateway HTTP API, payload 2.0): parses, saves, replies
 * `201 {id}` or `4xx/5xx {error}`. A filled honeypot gets the same `201 {id}` and is not saved.
 */

import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { failureBodyOf, type RequestSavedBody } from '../../core/api/replies';
import { dynamoDb } from '../shared/aws-clients';
import { cheatSheetRequestsTable } from '../shared/cheat-sheet-requests';
import { readSaveRequestConfig } from '../shared/config';
import { describeFailure, jsonReply } from '../shared/http-reply';
import { parseCheatSheetRequestEvent } from '../shared/http-request';
import { createLogger, describeErrorForLog, emailDomainOf } from '../shared/logger';
import { ProductMetrics } from '../shared/metrics';
import { isHoneypotFilled } from '../../core/api/request-schema';
import { functionServices } from '../../core/observability/product-metrics';
import { saveRequest } from './save-request';

const logger = createLogger(functionServices.saveRequest);
const metrics = new ProductMetrics(functionServices.saveRequest);

export const handler = metrics.instrument(saveRequestHandler);

async function saveRequestHandler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  try {
    const request = parseCheatSheetRequestEvent(event);
    if (isHoneypotFilled(request)) {
      // A script filled the hidden field: it sees a success with an id like any other; nothing is stored.
      logger.warn('Honeypot filled in: answered as saved, nothing stored');
      metrics.countRefusal('HoneypotCaught');
      return jsonReply(201, { id: randomUUID() } satisfies RequestSavedBody);
    }

    const { tableName, requestRetentionDays } = readSaveRequestConfig();
    const { id } = await saveRequest(request, {
      requests: cheatSheetRequestsTable(dynamoDb, tableName, { retentionDays: requestRetentionDays }),
      now: () => new Date(),
    });
    logger.info('Cheat-sheet request saved', { requestItemId: id, emailDomain: emailDomainOf(request.email) });
    metrics.countOutcome('RequestSaved');
    return jsonReply(201, { id } satisfies RequestSavedBody);
  } catch (error) {
    metrics.countFailure(error);
    const { statusCode, message } = describeFailure(error);
    const log = statusCode >= 500 ? logger.error.bind(logger) : logger.warn.bind(logger);
    log('Cheat-sheet request not saved', { statusCode, ...describeErrorForLog(error) });
    return jsonReply(statusCode, failureBodyOf.saveRequest(message));
  }
}
