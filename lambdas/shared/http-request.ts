/**
 * Turns an API Gateway HTTP API (payload 2.0) request into the JSON value it carries, enforcing
 * what every route accepts: a JSON content type, at most 10 KB, well-formed JSON.
 */

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidRequestError, MethodNotAllowedError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors';
import {
  bodyNotJsonMessage,
  bodyNotUtf8Message,
  bodyTooLargeMessage,
  emptyBodyMessage,
  methodNotAllowedMessage,
  unsupportedMediaTypeMessage,
} from '../../core/api/messages';
import { maxBodyBytes } from '../../core/api/request-limits';
import { parseCheatSheetRequest, type CheatSheetRequest } from '../../core/api/request-schema';

/** A request header by its lower-case name, whatever the case it arrived in. */
export function headerValue(event: APIGatewayProxyEventV2, name: string): string | undefined {
  // HTTP API lower-cases header names, but a hand-made event (or another front) may not.
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
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
export function readBodyText(event: APIGatewayProxyEventV2): string {
  const rawBody = event.body ?? '';
  // Check before decoding so an oversized body is never copied; base64 is 4/3 of the bytes.
  const encodedLimit = event.isBase64Encoded ? Math.ceil(maxBodyBytes / 3) * 4 : maxBodyBytes * 4;
  if (rawBody.length > encodedLimit) throw tooLarge();
  const bytes = Buffer.from(rawBody, event.isBase64Encoded ? 'base64' : 'utf8');
  if (bytes.length > maxBodyBytes) throw tooLarge();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidRequestError(bodyNotUtf8Message);
  }
}

export function parseJsonBody(event: APIGatewayProxyEventV2): unknown {
  if (!isContentType(headerValue(event, 'content-type'), 'application/json')) {
    throw new UnsupportedMediaTypeError(unsupportedMediaTypeMessage);
  }
  const text = readBodyText(event);
  if (text.length === 0) throw new InvalidRequestError(emptyBodyMessage);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidRequestError(bodyNotJsonMessage);
  }
}

function tooLarge(): PayloadTooLargeError {
  return new PayloadTooLargeError(bodyTooLargeMessage);
}

/** Every route also takes ANY method, so that a GET gets this 405 rather than the site's 404 page. */
export function refuseOtherMethods(event: APIGatewayProxyEventV2): void {
  const method = event.requestContext?.http?.method;
  if (method !== undefined && method !== 'POST') {
    throw new MethodNotAllowedError(methodNotAllowedMessage(method));
  }
}

/** Both routes take the same body: the validated `{name, email}`, or a typed 4xx error. */
export function parseCheatSheetRequestEvent(event: APIGatewayProxyEventV2): CheatSheetRequest {
  refuseOtherMethods(event);
  const parsed = parseCheatSheetRequest(parseJsonBody(event));
  if (!parsed.success) throw new InvalidRequestError(parsed.error);
  return parsed.data;
}
