/**
 * POST /api/cheat-sheet-requests (API Gateway HTTP API, payload 2.0): parses, saves, replies
 * `201 {id}` or `4xx/5xx {error, code}`. A filled honeypot gets the same `201 {id}` and is not saved.
 * With an `Idempotency-Key`, a repeat of the same request replays the first `201` and saves nothing.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { productRoutes } from '../../core/api/catalogue/routes';
import { jsonReply } from '../shared/http-reply';
import { idempotencyKeyOf, parseCheatSheetRequestBody, readApiRequest } from '../shared/http-request';
import type { KeptReply } from '../shared/idempotency';
import { replyOncePerKey } from '../shared/keyed-step';
import { createLogger } from '../shared/logger';
import { ProductMetrics } from '../shared/metrics';
import { remainingTimeOf } from '../shared/remaining-time';
import { functionServices } from '../../core/observability/product-metrics';
import { saveFailed, saveReplyOf, saveStep } from '../shared/save-step';

const logger = createLogger(functionServices.saveRequest);
const metrics = new ProductMetrics(functionServices.saveRequest);

export const handler = metrics.instrument(saveRequestHandler);

async function saveRequestHandler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  const apiRequest = readApiRequest(event);
  const reporting = { logger, metrics };
  let reply: KeptReply;
  try {
    const request = parseCheatSheetRequestBody(apiRequest);
    reply = await replyOncePerKey(
      {
        key: idempotencyKeyOf(apiRequest),
        scope: 'save-request',
        payload: request,
        remainingTimeMs: remainingTimeOf(context, productRoutes.saveRequest.timeoutSeconds),
        logger,
      },
      async () => saveReplyOf(await saveStep(request, apiRequest, reporting)),
    );
  } catch (error) {
    reply = saveReplyOf(saveFailed(error, reporting)).reply;
  }
  return jsonReply(reply.statusCode, reply.body);
}
