/**
 * Structured JSON logs (Powertools Logger). Personal data stays out: an address is logged as its
 * domain only, names never, and SDK messages have e-mail addresses masked.
 */

import { Logger } from '@aws-lambda-powertools/logger';
import { ProductError } from './errors';

export function createLogger(serviceName: string): Logger {
  return new Logger({ serviceName });
}

/** Enough to spot a provider-wide problem without identifying anyone. */
export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

const emailAddressPattern = /[^\s<>"'@]+@[^\s<>"'@]+/g;

/** Name, failure kind, code, HTTP status and message (addresses masked) of an error and of its cause. */
export function describeErrorForLog(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error).replace(emailAddressPattern, '[email]') };
  const described: Record<string, unknown> = {
    errorName: error.name,
    ...(error instanceof ProductError && { failureKind: error.kind }),
    errorMessage: error.message.replace(emailAddressPattern, '[email]'),
  };
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const metadata = (cause as { $metadata?: { httpStatusCode?: number } }).$metadata;
    described.causeName = cause.name;
    described.causeMessage = cause.message.replace(emailAddressPattern, '[email]');
    if ((cause as { code?: unknown }).code !== undefined) described.causeCode = (cause as { code?: unknown }).code;
    if (metadata?.httpStatusCode !== undefined) described.causeHttpStatus = metadata.httpStatusCode;
  }
  return described;
}
