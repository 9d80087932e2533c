/**
 * Where typed errors become HTTP statuses, public messages and codes: a lookup in the failure
 * catalogue (`core/api/catalogue/failures.ts`). The reply shapes are the API's own
 * (`core/api/replies.ts`, described in `docs/openapi.yaml`); messages of server-side failures are
 * fixed sentences: no stack trace, SDK message or internal detail ever reaches the visitor.
 */

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { failureKinds, type FailureCode } from '../../core/api/catalogue/failures';
import { failureKindOf, ProductError } from '../runtime/errors';

export interface FailureReply {
  readonly statusCode: number;
  readonly message: string;
  readonly code: FailureCode;
}

/** The request errors' own messages are written for the visitor, so the catalogue passes them through. */
export function describeFailure(error: unknown): FailureReply {
  const kind = failureKinds[failureKindOf(error)];
  const detail = error instanceof ProductError ? error : { message: '' };
  return { statusCode: kind.status, message: kind.publicMessage(detail), code: kind.code };
}

/** What a reply needs of its route's catalogue entry: the one method it takes. */
export interface RouteMethod {
  readonly method: string;
}

/** On a 405, the `Allow` header naming the route's one method (RFC 9110: a 405 names what is allowed). */
export function allowHeaderOf(statusCode: number, route: RouteMethod): { readonly Allow?: string } {
  return statusCode === 405 ? { Allow: route.method } : {};
}

/** JSON replies are never cached: each one answers one visitor's request. */
export function jsonReply(statusCode: number, body: unknown, route: RouteMethod): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      ...allowHeaderOf(statusCode, route),
    },
    body: JSON.stringify(body),
  };
}
