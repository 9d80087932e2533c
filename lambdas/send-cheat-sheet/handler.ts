/**
 * POST /api/send-cheat-sheet (API Gateway HTTP API, payload 2.0): parses, identifies the client
 * (behind CloudFront, refusing a request that did not come through it), sends, replies
 * `200 {success: true, message}` or `4xx/5xx {success: false, error, code}`. A filled honeypot
 * gets the same 200 and nothing is sent. With an `Idempotency-Key`, a repeat of the same request
 * replays the first reply and sends nothing again.
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
import { sendFailed, sendReplyOf, sendStep } from '../requests/send-step';

const logger = createLogger(functionServices.sendCheatSheet);
const metrics = new ProductMetrics(functionServices.sendCheatSheet);

export const handler = metrics.instrument(sendCheatSheetHandler);

async function sendCheatSheetHandler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  const apiRequest = readApiRequest(event);
  const remainingTimeMs = remainingTimeOf(context, productRoutes.sendCheatSheet.timeoutSeconds);
  const reporting = { logger, metrics, remainingTimeMs };
  let reply: KeptReply;
  try {
    const request = parseCheatSheetRequestBody(apiRequest, productRoutes.sendCheatSheet);
    const key = idempotencyKeyOf(apiRequest);
    reply = await replyOncePerKey(
      { key, scope: 'send-cheat-sheet', payload: request, remainingTimeMs, logger },
      // The key also names the submission's request: the send is for it alone (send-cheat-sheet.ts).
      async () => sendReplyOf(await sendStep(request, apiRequest, reporting, key, { asksProofOfWork: true })),
    );
  } catch (error) {
    reply = sendReplyOf(sendFailed(error, reporting)).reply;
  }
  return jsonReply(reply.statusCode, reply.body, productRoutes.sendCheatSheet);
}
