/**
 * POST /api/cheat-sheet-requests (API Gateway HTTP API, payload 2.0): parses, saves, replies
 * `201 {id}` or `4xx/5xx {error, code}`. A filled honeypot gets the same `201 {id}` and is not saved.
 * With an `Idempotency-Key`, a repeat of the same request replays the first `201` and saves nothing.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { productRoutes } from '../../core/api/catalogue/routes';
import { jsonReply } from '../http/http-reply';
import { idempotencyKeyOf, parseCheatSheetRequestBody, readApiRequest } from '../http/http-request';
import type { KeptReply } from '../requests/idempotency';
import { replyOncePerKey } from '../requests/keyed-step';
import { createLogger } from '../runtime/logger';
import { ProductMetrics } from '../runtime/metrics';
import { remainingTimeOf } from '../runtime/remaining-time';
import { functionServices } from '../../core/observability/product-metrics';
import { saveFailed, saveReplyOf, saveStep } from '../requests/save-step';

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
    const request = parseCheatSheetRequestBody(apiRequest, productRoutes.saveRequest);
    const key = idempotencyKeyOf(apiRequest);
    reply = await replyOncePerKey(
      {
        key,
        scope: 'save-request',
        payload: request,
        remainingTimeMs: remainingTimeOf(context, productRoutes.saveRequest.timeoutSeconds),
        logger,
      },
      // The key is stored on the request it saves, whose id it gives (cheat-sheet-requests.ts).
      async () => saveReplyOf(await saveStep(request, apiRequest, reporting, key)),
    );
  } catch (error) {
    reply = saveReplyOf(saveFailed(error, reporting)).reply;
  }
  return jsonReply(reply.statusCode, reply.body, productRoutes.saveRequest);
}
