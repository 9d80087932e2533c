/**
 * What API Gateway's HTTP API does in front of a Lambda function (payload format 2.0), for the
 * local server: an HTTP request becomes the event the real handler receives, and the handler's
 * result becomes the HTTP response.
 */

import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

export type HttpApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

export interface IncomingApiRequest {
  readonly method: string;
  /** Path and query string, as on the request line. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly sourceIp: string;
}

export interface ApiResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body: Buffer;
}

/** HTTP API passes text bodies as they are and base64-encodes everything else. */
export function isTextContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return (
    mediaType.startsWith('text/') ||
    ['application/json', 'application/javascript', 'application/xml'].includes(mediaType) ||
    mediaType.endsWith('+json') ||
    mediaType.endsWith('+xml')
  );
}

function commonLogTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(
    date.getUTCHours(),
  )}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

export function toHttpApiEvent(
  request: IncomingApiRequest,
  routeKey: string,
  now = new Date(),
): APIGatewayProxyEventV2 {
  const queryStart = request.url.indexOf('?');
  const rawPath = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  const rawQueryString = queryStart === -1 ? '' : request.url.slice(queryStart + 1);

  // Lower-cased names, repeated headers joined with commas, cookies split out: as HTTP API does.
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const joined = Array.isArray(value) ? value.join(',') : value;
    if (name.toLowerCase() === 'cookie') cookies = joined.split(';').map((cookie) => cookie.trim());
    else headers[name.toLowerCase()] = joined;
  }

  const queryStringParameters: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    queryStringParameters[key] = key in queryStringParameters ? `${queryStringParameters[key]},${value}` : value;
  }

  const hasBody = request.body.length > 0;
  const isBase64Encoded = hasBody && !isTextContentType(headers['content-type']);
  const host = headers.host ?? 'localhost';
  const requestId = randomUUID();

  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    ...(rawQueryString ? { queryStringParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: host,
      domainPrefix: host.split('.')[0],
      http: {
        method: request.method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: commonLogTime(now),
      timeEpoch: now.getTime(),
    },
    ...(hasBody ? { body: request.body.toString(isBase64Encoded ? 'base64' : 'utf8') } : {}),
    isBase64Encoded,
  };
}

/**
 * A Lambda context good enough for handlers that log it and ask for the time left: that of the
 * function's own timeout, counted from the call, as Lambda counts it.
 */
export function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const notAvailable = () => {
    throw new Error('Not available locally');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: notAvailable,
    fail: notAvailable,
    succeed: notAvailable,
  };
}

function isStructuredResult(result: unknown): result is APIGatewayProxyStructuredResultV2 {
  return typeof result === 'object' && result !== null && 'statusCode' in result;
}

/** The HTTP response API Gateway makes of a handler's result (structured, or a bare value it serialises). */
export function fromHandlerResult(result: unknown): ApiResponse {
  if (!isStructuredResult(result)) {
    const body = typeof result === 'string' ? result : JSON.stringify(result ?? null);
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) };
  }
  const headers: Record<string, string | readonly string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
  return { statusCode: result.statusCode ?? 200, headers, body };
}

/** What API Gateway answers when the function itself fails. */
export const internalServerErrorResponse: ApiResponse = {
  statusCode: 500,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ message: 'Internal Server Error' })),
};
