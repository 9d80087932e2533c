/**
 * POST /api/send-cheat-sheet (API Gateway HTTP API, payload 2.0): parses, identifies the client
 * (behind CloudFront, refusing a request that did not come through it), sends, replies
 * `200 {success: true, message}` or `4xx/5xx {success: false, error, code}`. A filled honeypot
 * gets the same 200 and nothing is sent.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { cheatSheetSentMessage } from '../../core/api/messages';
import { jsonReplyOf } from '../../core/api/catalogue/routes';
import type { CheatSheetSentBody } from '../../core/api/reply-bodies';
import { jsonReply } from '../shared/http-reply';
import { parseCheatSheetRequestBody, readApiRequest } from '../shared/http-request';
import { createLogger } from '../shared/logger';
import { ProductMetrics } from '../shared/metrics';
import { functionServices } from '../../core/observability/product-metrics';
import { sendFailed, sendStep, type SendStepResult } from '../shared/send-step';

const logger = createLogger(functionServices.sendCheatSheet);
const metrics = new ProductMetrics(functionServices.sendCheatSheet);
const reply = jsonReplyOf('sendCheatSheet');

export const handler = metrics.instrument(sendCheatSheetHandler);

async function sendCheatSheetHandler(
  event: APIGatewayProxyEventV2,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (context) logger.addContext(context);
  const apiRequest = readApiRequest(event);
  let result: SendStepResult;
  try {
    result = await sendStep(parseCheatSheetRequestBody(apiRequest), apiRequest, { logger, metrics });
  } catch (error) {
    result = sendFailed(error, { logger, metrics });
  }
  if (result.ok) {
    return jsonReply(reply.success.status, {
      success: true,
      message: cheatSheetSentMessage,
    } satisfies CheatSheetSentBody);
  }
  return jsonReply(result.failure.statusCode, reply.failureBody.of(result.failure));
}
