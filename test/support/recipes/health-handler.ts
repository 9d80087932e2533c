/** The route recipe's handler: reads the request, refuses another method than its entry's, replies. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describeFailure, jsonReply } from '../../../lambdas/http/http-reply';
import { readApiRequest, refuseOtherMethods } from '../../../lambdas/http/http-request';
import { healthRoute } from './health-route';

const route = healthRoute.trigger;

export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  try {
    refuseOtherMethods(readApiRequest(event), route);
    return jsonReply(200, { ok: true }, route);
  } catch (error) {
    const { statusCode, message, code } = describeFailure(error);
    return jsonReply(statusCode, route.reply.failureBody.of({ message, code }), route);
  }
}
