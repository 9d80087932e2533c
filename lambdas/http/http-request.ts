/**
 * The request as the functions see it: an API Gateway HTTP API (payload 2.0) event is read once,
 * at the handler, into an `ApiRequest` (`readApiRequest`), and nothing below the handler takes the
 * event. Then what every route accepts is enforced on it: POST only, at most 10 KB, UTF-8, and for
 * the JSON routes a JSON content type and well-formed JSON.
 */

import { proofOfWorkHeader } from '../../core/api/proof-of-work';
import { canaryMarkHeader } from '../../core/data/canary-mark';
import type { RouteMethod } from './http-reply';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ProductError } from '../runtime/errors';
import {
  bodyNotJsonMessage,
  bodyNotUtf8Message,
  bodyTooLargeMessage,
  emptyBodyMessage,
  invalidIdempotencyKeyMessage,
  methodNotAllowedMessage,
  unsupportedMediaTypeMessage,
} from '../../core/api/messages';
import { maxBodyBytes } from '../../core/api/request-limits';
import { parseCheatSheetRequest, type CheatSheetRequest } from '../../core/api/request-schema';
import { originSecretHeader, viewerAddressHeader } from '../../core/config/edge-headers';

/** The body as API Gateway passed it: base64-encoded for every type it does not count as text. */
export interface RequestBody {
  readonly text: string;
  readonly isBase64Encoded: boolean;
}

/**
 * What identifies the client, for its client keys and the origin check (client-address.ts): which
 * of these is trusted depends on where the function runs (`CLIENT_ADDRESS_SOURCE`).
 */
export interface ClientOrigin {
  /** API Gateway's `requestContext.http.sourceIp`: the TCP peer, which no header can change. */
  readonly sourceIp?: string;
  /** `CloudFront-Viewer-Address` (`IP:port`), set by CloudFront; trusted only with the origin secret. */
  readonly viewerAddress?: string;
  /** The origin secret header CloudFront adds: proves the request came through the distribution. */
  readonly originSecret?: string;
}

/** One request, read once from the event at the handler. */
export interface ApiRequest {
  /** Undefined only on a hand-made event; the routes take POST alone. */
  readonly method?: string;
  readonly contentType?: string;
  /** `Sec-Fetch-Site`, lower-cased: where a browser says the request was sent from. */
  readonly fetchSite?: string;
  readonly userAgent?: string;
  /** `Idempotency-Key`, trimmed; undefined when absent or blank. */
  readonly idempotencyKey?: string;
  /** The solved proof of work (`X-Cheat-Sheet-Proof`), as sent. */
  readonly proofOfWork?: string;
  /** The canary's mark (`X-Canary-Mark`), as sent: worth something only once verified (canary-request.ts). */
  readonly canaryMark?: string;
  readonly client: ClientOrigin;
  readonly body: RequestBody;
}

/** A request header by its lower-case name, whatever the case it arrived in. */
function headerOf(event: APIGatewayProxyEventV2, name: string): string | undefined {
  // HTTP API lower-cases header names, but a hand-made event (or another front) may not.
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** The one place an event is read: never throws, so a refusal is always the routes' own. */
export function readApiRequest(event: APIGatewayProxyEventV2): ApiRequest {
  const idempotencyKey = headerOf(event, 'idempotency-key')?.trim();
  return {
    method: event.requestContext?.http?.method,
    contentType: headerOf(event, 'content-type'),
    fetchSite: headerOf(event, 'sec-fetch-site')?.trim().toLowerCase(),
    userAgent: headerOf(event, 'user-agent'),
    ...(idempotencyKey ? { idempotencyKey } : {}),
    proofOfWork: headerOf(event, proofOfWorkHeader.toLowerCase()),
    canaryMark: headerOf(event, canaryMarkHeader.toLowerCase()),
    client: {
      sourceIp: event.requestContext?.http?.sourceIp,
      viewerAddress: headerOf(event, viewerAddressHeader),
      originSecret: headerOf(event, originSecretHeader),
    },
    body: { text: event.body ?? '', isBase64Encoded: event.isBase64Encoded ?? false },
  };
}

/** `mediaType`, optionally with `charset=utf-8`; anything else would be decoded wrongly. */
export function isContentType(contentType: string | undefined, expected: string): boolean {
  if (!contentType) return false;
  const [mediaType, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (mediaType !== expected) return false;
  return parameters.every((parameter) => {
    const [key, value] = parameter.split('=').map((part) => part.trim().replace(/^"|"$/g, ''));
    return key !== 'charset' || value === 'utf-8' || value === 'utf8';
  });
}

/**
 * The body's text: at most 10 KB, base64 or not (API Gateway base64-encodes every type it does
 * not count as text, `application/x-www-form-urlencoded` included), and UTF-8.
 */
export function readBodyText({ text, isBase64Encoded }: RequestBody): string {
  // Check before decoding so an oversized body is never copied; base64 is 4/3 of the bytes.
  const encodedLimit = isBase64Encoded ? Math.ceil(maxBodyBytes / 3) * 4 : maxBodyBytes * 4;
  if (text.length > encodedLimit) throw tooLarge();
  const bytes = Buffer.from(text, isBase64Encoded ? 'base64' : 'utf8');
  if (bytes.length > maxBodyBytes) throw tooLarge();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ProductError('invalidRequest', bodyNotUtf8Message);
  }
}

export function parseJsonBody(request: Pick<ApiRequest, 'contentType' | 'body'>): unknown {
  if (!isContentType(request.contentType, 'application/json')) {
    throw new ProductError('unsupportedMediaType', unsupportedMediaTypeMessage);
  }
  const text = readBodyText(request.body);
  if (text.length === 0) throw new ProductError('invalidRequest', emptyBodyMessage);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProductError('invalidRequest', bodyNotJsonMessage);
  }
}

function tooLarge(): ProductError {
  return new ProductError('payloadTooLarge', bodyTooLargeMessage);
}

/**
 * Every route also takes ANY method, so that another method than its entry's gets this 405 rather
 * than the site's 404 page.
 */
export function refuseOtherMethods({ method }: Pick<ApiRequest, 'method'>, route: RouteMethod): void {
  if (method !== undefined && method !== route.method) {
    throw new ProductError('methodNotAllowed', methodNotAllowedMessage(method, route.method));
  }
}

/** Both JSON routes take the same body: the validated `{name, email}`, or a typed 4xx error. */
export function parseCheatSheetRequestBody(request: ApiRequest, route: RouteMethod): CheatSheetRequest {
  refuseOtherMethods(request, route);
  const parsed = parseCheatSheetRequest(parseJsonBody(request));
  if (!parsed.success) throw new ProductError('invalidRequest', parsed.error);
  return parsed.data;
}

/** What a key may be: visible ASCII (a UUID, a ULID, a random token), at most 255 characters. */
const usableIdempotencyKey = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's `Idempotency-Key` (the IETF draft's header: the client's own name for one
 * operation, whatever it retries), or undefined when it has none: the request is then new, as
 * always. The draft sends it as a structured-field string (`"…"`): the quotes are dropped.
 */
export function idempotencyKeyOf({ idempotencyKey }: Pick<ApiRequest, 'idempotencyKey'>): string | undefined {
  if (idempotencyKey === undefined) return undefined;
  const key = idempotencyKey.replace(/^"(.*)"$/, '$1');
  if (!usableIdempotencyKey.test(key)) throw new ProductError('invalidRequest', invalidIdempotencyKeyMessage);
  return key;
}
