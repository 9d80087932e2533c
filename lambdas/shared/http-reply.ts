/**
 * The one place where typed errors become HTTP statuses and public messages. Public messages for
 * server-side failures are fixed sentences: no stack trace, SDK message or internal detail ever
 * reaches the visitor.
 */

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import {
  CheatSheetUnavailableError,
  ConfigurationError,
  DailyLimitReachedError,
  EmailRejectedError,
  EmailServiceUnavailableError,
  InvalidRequestError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  SenderNotVerifiedError,
  StorageUnavailableError,
  UnsupportedMediaTypeError,
} from './errors';

export interface FailureReply {
  readonly statusCode: number;
  readonly message: string;
}

/** The page shows its 'Email Configuration Error' when a send error contains 'domain' or 'verify'. */
export const senderNotVerifiedMessage =
  "The sender's email domain is not verified with the email service. Please verify the domain or contact support.";

export const unexpectedFailureMessage = 'Something went wrong on our side. Please try again later.';

/** The request errors' own messages are written for the visitor, so they are passed through. */
export function describeFailure(error: unknown): FailureReply {
  if (error instanceof InvalidRequestError) return { statusCode: 400, message: error.message };
  if (error instanceof MethodNotAllowedError) return { statusCode: 405, message: error.message };
  if (error instanceof PayloadTooLargeError) return { statusCode: 413, message: error.message };
  if (error instanceof UnsupportedMediaTypeError) return { statusCode: 415, message: error.message };
  if (error instanceof DailyLimitReachedError) {
    return {
      statusCode: 429,
      message: `This email address has already received the cheat sheet ${error.limit} ${
        error.limit === 1 ? 'time' : 'times'
      } in the last 24 hours. Please check your inbox, or try again tomorrow.`,
    };
  }
  // A misconfigured sender is our fault, reported by the upstream service: 502.
  if (error instanceof SenderNotVerifiedError) return { statusCode: 502, message: senderNotVerifiedMessage };
  if (error instanceof EmailRejectedError) {
    return {
      statusCode: 502,
      message: 'The email service could not deliver the cheat sheet. Please try again later or contact support.',
    };
  }
  // Temporary: throttled or unreachable services, a PDF not (yet) in its bucket.
  if (error instanceof EmailServiceUnavailableError) {
    return {
      statusCode: 503,
      message: 'The email service is temporarily unavailable. Please try again in a few minutes.',
    };
  }
  if (error instanceof StorageUnavailableError) {
    return {
      statusCode: 503,
      message: 'Our request database is temporarily unavailable. Please try again in a few minutes.',
    };
  }
  if (error instanceof CheatSheetUnavailableError) {
    return {
      statusCode: 503,
      message: 'The cheat sheet is temporarily unavailable. Please try again later or contact support.',
    };
  }
  if (error instanceof ConfigurationError) {
    return { statusCode: 500, message: 'The service is not configured correctly. Please contact support.' };
  }
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
