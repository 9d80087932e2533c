/**
 * The local stand-in for CloudFront + API Gateway: one HTTP server for the built site and the
 * API. The API routes go to the real Lambda handlers through the HTTP API adapter, and their
 * replies (JSON, or the form route's redirects and pages) reach the client unchanged whatever
 * their status; any other `/api` path gets the
 * not-found page, as behind CloudFront; everything else is the static site. Every response
 * carries the cloud's security headers.
 */

import http from 'node:http';
import { failureKinds, type FailureCode } from '../core/api/catalogue/failures';
import { securityHeaders } from '../core/config/edge-headers';
import {
  fromHandlerResult,
  internalServerErrorResponse,
  lambdaContext,
  toHttpApiEvent,
  type ApiResponse,
  type HttpApiHandler,
} from './api-gateway-adapter';
import { compressed } from './compression';
import { notFoundResponse, staticSiteResponse } from './static-site';

export interface ApiRoute {
  /** The Lambda function's name, for its context and logs. */
  readonly functionName: string;
  /** Its timeout, from its catalogue entry: the context's time left counts down from it. */
  readonly timeoutSeconds: number;
  /** The route's one method, its catalogue entry's; any other reaches its ANY twin. */
  readonly method: string;
  readonly handler: HttpApiHandler;
  /** The route's own refusal (its JSON error shape, or the form route's page), for a body too large to read. */
  readonly refusal: (failure: LocalRefusal) => ApiResponse;
}

/** A refusal the server makes itself, before any handler runs: status, message and the catalogue's code. */
export interface LocalRefusal {
  readonly statusCode: number;
  readonly message: string;
  readonly code: FailureCode;
}

export interface SiteServerOptions {
  /** The built site (frontend/dist); null serves only the API (as for `npm run dev`). */
  readonly siteDir: string | null;
  /** The routes by path, e.g. '/api/send-cheat-sheet'. */
  readonly apiRoutes: Readonly<Record<string, ApiRoute>>;
}

/** API Gateway refuses larger payloads anyway; the handlers refuse anything over 10 KB. */
const maxRequestBytes = 1024 * 1024;

export function json(statusCode: number, body: unknown): ApiResponse {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: Buffer.from(JSON.stringify(body)),
  };
}

class RequestTooLargeError extends Error {}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxRequestBytes) {
        request.removeAllListeners('data');
        request.resume();
        reject(new RequestTooLargeError());
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

async function apiResponse(
  request: http.IncomingMessage,
  path: string,
  { apiRoutes: routes, siteDir }: SiteServerOptions,
) {
  const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
  if (!route) {
    // API Gateway answers a route it does not have with 404, which CloudFront's error response
    // (infra/constructs/site.ts) turns into the not-found page, whatever the method.
    request.resume();
    return compressed(await notFoundResponse(siteDir), request.headers['accept-encoding']);
  }
  let body: Buffer;
  try {
    body = await readBody(request);
  } catch (error) {
    if (error instanceof RequestTooLargeError) {
      return route.refusal({
        statusCode: failureKinds.payloadTooLarge.status,
        message: 'The request body is too large.',
        code: failureKinds.payloadTooLarge.code,
      });
    }
    throw error;
  }
  // As in the cloud: the entry's method has its own route, any other method the route's ANY twin
  // (the handler answers 405).
  const method = request.method ?? 'GET';
  const event = toHttpApiEvent(
    {
      method,
      url: request.url ?? path,
      headers: request.headers,
      body,
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
    },
    `${method === route.method ? method : 'ANY'} ${path}`,
  );
  try {
    return fromHandlerResult(await route.handler(event, lambdaContext(route.functionName, route.timeoutSeconds)));
  } catch (error) {
    // A handler that throws is a bug: API Gateway hides it behind a bare 500, and so do we.
    console.error(`${route.functionName} threw:`, error);
    return internalServerErrorResponse;
  }
}

async function siteResponse(request: http.IncomingMessage, siteDir: string | null): Promise<ApiResponse> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    request.resume();
    return {
      statusCode: 405,
      headers: { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' },
      body: Buffer.from('405 Method Not Allowed\n'),
    };
  }
  if (siteDir === null) return notFoundResponse(null);
  return compressed(await staticSiteResponse(siteDir, request.url ?? '/'), request.headers['accept-encoding']);
}

export function createSiteServer(options: SiteServerOptions): http.Server {
  const { siteDir } = options;
  // The handler never rejects: every failure becomes a 500 reply below.
  return http.createServer((request, response) => void serve(request, response));

  async function serve(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    let result: ApiResponse;
    try {
      const path = (request.url ?? '/').split('?')[0];
      result =
        path === '/api' || path.startsWith('/api/')
          ? await apiResponse(request, path, options)
          : await siteResponse(request, siteDir);
    } catch (error) {
      console.error('Local server error:', error);
      result = json(500, { message: 'Internal Server Error' });
    }
    for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value);
    for (const [name, value] of Object.entries(result.headers)) response.setHeader(name, value);
    response.setHeader('content-length', result.body.length);
    response.writeHead(result.statusCode);
    response.end(request.method === 'HEAD' ? undefined : result.body);
  }
}
