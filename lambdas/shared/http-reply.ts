/**
 * The one place where typed errors become HTTP statuses and public messages. The messages and the
 * reply shapes are the API's own (`core/api/replies.ts`, described in `docs/openapi.yaml`); those
 * of server-side failures are fixed sentences: no stack trace, SDK message or internal detail
 * ever reaches the visitor.
 */

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import {
  CheatSheetUnavailableError,
  ClientLimitReachedError,
  ConfigurationError,
  CrossSiteRequestError,
  DailyLimitReachedError,
  EmailRejectedError,
  EmailServiceUnavailableError,
  InvalidRequestError,
  MethodNotAllowedError,
  OriginSecretUnavailableError,
  PayloadTooLargeError,
  SendBudgetExhaustedError,
  SenderNotVerifiedError,
  StorageUnavailableError,
  UnsupportedMediaTypeError,
  UntrustedOriginError,
} from './errors';
import {
  cheatSheetUnavailableMessage,
  clientLimitReachedMessage,
  dailyLimitReachedMessage,
  emailRejectedMessage,
  emailServiceUnavailableMessage,
  misconfiguredMessage,
  originSecretUnavailableMessage,
  sendBudgetSpentMessage,
  senderNotVerifiedMessage,
  storageUnavailableMessage,
  unexpectedFailureMessage,
  untrustedOriginMessage,
} from '../../core/api/replies';

export interface FailureReply {
  readonly statusCode: number;
  readonly message: string;
}

/** The request errors' own messages are written for the visitor, so they are passed through. */
export function describeFailure(error: unknown): FailureReply {
  if (error instanceof InvalidRequestError) return { statusCode: 400, message: error.message };
  // Never 404: CloudFront would replace the JSON with the not-found page.
  if (error instanceof UntrustedOriginError) return { statusCode: 403, message: untrustedOriginMessage };
  if (error instanceof CrossSiteRequestError) return { statusCode: 403, message: error.message };
  if (error instanceof MethodNotAllowedError) return { statusCode: 405, message: error.message };
  if (error instanceof PayloadTooLargeError) return { statusCode: 413, message: error.message };
  if (error instanceof UnsupportedMediaTypeError) return { statusCode: 415, message: error.message };
  if (error instanceof DailyLimitReachedError) {
    return { statusCode: 429, message: dailyLimitReachedMessage(error.limit) };
  }
  if (error instanceof ClientLimitReachedError) {
    return { statusCode: 429, message: clientLimitReachedMessage(error.limit) };
  }
  // The product's own budget, not the visitor's doing: the service cannot send for now.
  if (error instanceof SendBudgetExhaustedError) return { statusCode: 503, message: sendBudgetSpentMessage };
  // A misconfigured sender is our fault, reported by the upstream service: 502.
  if (error instanceof SenderNotVerifiedError) return { statusCode: 502, message: senderNotVerifiedMessage };
  if (error instanceof EmailRejectedError) return { statusCode: 502, message: emailRejectedMessage };
  // Temporary: throttled or unreachable services, a PDF not (yet) in its bucket.
  if (error instanceof EmailServiceUnavailableError) {
    return { statusCode: 503, message: emailServiceUnavailableMessage };
  }
  if (error instanceof StorageUnavailableError) return { statusCode: 503, message: storageUnavailableMessage };
  if (error instanceof CheatSheetUnavailableError) return { statusCode: 503, message: cheatSheetUnavailableMessage };
  if (error instanceof OriginSecretUnavailableError) {
    return { statusCode: 503, message: originSecretUnavailableMessage };
  }
  if (error instanceof ConfigurationError) return { statusCode: 500, message: misconfiguredMessage };
  return { statusCode: 500, message: unexpectedFailureMessage };
}

/** JSON replies are never cached: each one answers one visitor's request. */
export function jsonReply(statusCode: number, body: unknown): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      // Both routes take POST alone (RFC 9110: a 405 names what is allowed).
      ...(statusCode === 405 ? { Allow: 'POST' } : {}),
    },
    body: JSON.stringify(body),
  };
}
