/**
 * A handler whose every reply is held to `docs/openapi.yaml`: the tests that call it through this
 * wrapper fail on any reply the document does not describe (status, headers, JSON shape).
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { expectDocumentedReply } from '../../support/openapi';

export type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

export function documented(handler: Handler): Handler {
  return async (event) => {
    const reply = await handler(event);
    expectDocumentedReply({
      route: event.rawPath,
      method: event.requestContext.http.method,
      status: reply.statusCode ?? 200,
      headers: reply.headers ?? {},
      body: reply.body,
    });
    return reply;
  };
}
