/** API Gateway HTTP API (payload 2.0) events for handler tests, made by the local adapter. */

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { toHttpApiEvent } from '../../../local/api-gateway-adapter';

export const saveRoute = '/api/cheat-sheet-requests';
export const sendRoute = '/api/send-cheat-sheet';
export const formRoute = '/api/cheat-sheet-form';
export const challengeRoute = '/api/cheat-sheet-challenge';
export const visitRoute = '/api/visit';

/**
 * The form as a browser posts it (urlencoded, `Sec-Fetch-Site: same-origin`), made by the local
 * adapter: so its body arrives base64-encoded, as API Gateway passes this content type.
 */
export function formEvent(
  fields: Readonly<Record<string, string>> | string,
  options: EventOptions = {},
): APIGatewayProxyEventV2 {
  const body = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
  return postEvent(formRoute, body, {
    contentType: 'application/x-www-form-urlencoded',
    ...options,
    headers: { 'sec-fetch-site': 'same-origin', ...options.headers },
  });
}

/** The same request with its body as plain text, as a front that does not base64-encode would pass it. */
export function plainBodyEvent(event: APIGatewayProxyEventV2): APIGatewayProxyEventV2 {
  if (!event.isBase64Encoded) return event;
  return { ...event, body: Buffer.from(event.body ?? '', 'base64').toString('utf8'), isBase64Encoded: false };
}

export interface EventOptions {
  /** Replaces the default `content-type: application/json`; null sends none. */
  readonly contentType?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** The client's address as API Gateway saw it. @default 127.0.0.1 */
  readonly sourceIp?: string;
}

/** A POST whose body is `body` as JSON, or the exact text or bytes given. */
export function postEvent(route: string, body: unknown, options: EventOptions = {}): APIGatewayProxyEventV2 {
  const bytes =
    body instanceof Uint8Array
      ? Buffer.from(body)
      : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  return toHttpApiEvent(
    {
      method: 'POST',
      url: route,
      headers: {
        host: 'localhost',
        'user-agent': 'jest',
        ...(contentType === null ? {} : { 'content-type': contentType }),
        ...options.headers,
      },
      body: bytes,
      sourceIp: options.sourceIp ?? '127.0.0.1',
    },
    `POST ${route}`,
  );
}

/** The same request as API Gateway sends it when it base64-encodes the body. */
export function base64Event(event: APIGatewayProxyEventV2): APIGatewayProxyEventV2 {
  return { ...event, body: Buffer.from(event.body ?? '', 'utf8').toString('base64'), isBase64Encoded: true };
}

/** The same request with another method, as the route's ANY twin passes it on. */
export function withMethod(event: APIGatewayProxyEventV2, method: string): APIGatewayProxyEventV2 {
  return {
    ...event,
    routeKey: `ANY ${event.rawPath}`,
    requestContext: { ...event.requestContext, http: { ...event.requestContext.http, method } },
  };
}

export function replyJson(reply: { body?: string }): Record<string, unknown> {
  return JSON.parse(reply.body ?? 'null') as Record<string, unknown>;
}

/** A GET of `route`, with no body, as API Gateway passes it to the route's own method. */
export function getEvent(route: string, options: Omit<EventOptions, 'contentType'> = {}): APIGatewayProxyEventV2 {
  const event = postEvent(route, '', { ...options, contentType: null });
  return {
    ...event,
    routeKey: `GET ${route}`,
    body: undefined,
    requestContext: { ...event.requestContext, http: { ...event.requestContext.http, method: 'GET' } },
  };
}
