/**
 * POST /api/cheat-sheet-requests (API Gateway HTTP API, payload 2.0): parses, saves, replies
 * `201 {id}` or `4xx/5xx {error, code}`. A filled honeypot gets the same `201 {id}` and is not saved.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { jsonReplyOf } from '../../core/api/catalogue/routes';
import type { RequestSavedBody } from '../../core/api/reply-bodies';
import { jsonReply } from '../shared/http-reply';
import { parseCheatSheetRequestBody, readApiRequest } from '../shared/http-request';
import { createLogger } from '../shared/logger';
import { ProductMetrics } from '../shared/metrics';
import { functionServices } from '../../core/observability/product-metrics';
import { saveFailed, saveStep, type SaveStepResult } from '../shared/save-step';

const logger = createLogger(functionServices.saveRequest);
const metrics = new ProductMetrics(functionServices.saveRequest);
const reply = jsonReplyOf('saveRequest');

export const handler = metrics.instrument(saveRequestHandler);

async function saveRequestHandler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  const apiRequest = readApiRequest(event);
  let result: SaveStepResult;
  try {
    result = await saveStep(parseCheatSheetRequestBody(apiRequest), apiRequest, { logger, metrics });
  } catch (error) {
    result = saveFailed(error, { logger, metrics });
  }
  if (result.ok) return jsonReply(reply.success.status, { id: result.id } satisfies RequestSavedBody);
  return jsonReply(result.failure.statusCode, reply.failureBody.of(result.failure));
}
