/**
 * The typed failures of the functions. Each carries its kind in the failure catalogue
 * (`core/api/catalogue/failures.ts`), which says what status, public message, code and metric it
 * becomes: the errors say what went wrong in domain terms only.
 */

import type { FailureDetail, FailureKindName } from '../../core/api/catalogue/failures';

/** A failure the catalogue knows; anything else thrown is `unexpected`. */
export abstract class ProductError extends Error implements FailureDetail {
  abstract readonly kind: FailureKindName;
  /** The limit reached, for the limits' messages. */
  readonly limit?: number;
}

/** The request body is not a usable `{name, email}`: the message is safe to show the visitor. */
export class InvalidRequestError extends ProductError {
  override readonly name = 'InvalidRequestError';
  readonly kind = 'invalidRequest';
}

/** The route was called with another method than POST. */
export class MethodNotAllowedError extends ProductError {
  override readonly name = 'MethodNotAllowedError';
  readonly kind = 'methodNotAllowed';
}

/** The body is not declared as JSON. */
export class UnsupportedMediaTypeError extends ProductError {
  override readonly name = 'UnsupportedMediaTypeError';
  readonly kind = 'unsupportedMediaType';
}

/** The browser says another site's page sent the form (Sec-Fetch-Site). */
export class CrossSiteRequestError extends ProductError {
  override readonly name = 'CrossSiteRequestError';
  readonly kind = 'crossSiteRequest';
}

/** The body is larger than a `{name, email}` can ever be. */
export class PayloadTooLargeError extends ProductError {
  override readonly name = 'PayloadTooLargeError';
  readonly kind = 'payloadTooLarge';
}

/** The address already received as many cheat sheets as its daily cap allows. */
export class AddressDailyCapReachedError extends ProductError {
  override readonly name = 'AddressDailyCapReachedError';
  readonly kind = 'addressDailyCapReached';
  constructor(override readonly limit: number) {
    super(`Address daily cap of ${limit} cheat sheets reached`);
  }
}

/** The client (one IPv4 address or IPv6 /64) was already sent as many cheat sheets this hour as its cap allows. */
export class ClientHourlySendCapReachedError extends ProductError {
  override readonly name = 'ClientHourlySendCapReachedError';
  readonly kind = 'clientHourlySendCapReached';
  constructor(override readonly limit: number) {
    super(`Client hourly cap of ${limit} cheat sheets reached`);
  }
}

/** The client's wider network (an IPv4 /24 or IPv6 /48) was already sent as many cheat sheets this hour as its cap allows. */
export class NetworkHourlySendCapReachedError extends ProductError {
  override readonly name = 'NetworkHourlySendCapReachedError';
  readonly kind = 'networkHourlySendCapReached';
  constructor(override readonly limit: number) {
    super(`Network hourly cap of ${limit} cheat sheets reached`);
  }
}

/** The client already saved as many requests this hour as its save cap allows. */
export class ClientHourlySaveCapReachedError extends ProductError {
  override readonly name = 'ClientHourlySaveCapReachedError';
  readonly kind = 'clientHourlySaveCapReached';
  constructor(override readonly limit: number) {
    super(`Client hourly save cap of ${limit} requests reached`);
  }
}

/** The client's wider network already saved as many requests this hour as its save cap allows. */
export class NetworkHourlySaveCapReachedError extends ProductError {
  override readonly name = 'NetworkHourlySaveCapReachedError';
  readonly kind = 'networkHourlySaveCapReached';
  constructor(override readonly limit: number) {
    super(`Network hourly save cap of ${limit} requests reached`);
  }
}

/** The recipient's domain takes no mail (no such domain, a null MX, no mail host): checked before any limit. */
export class UndeliverableAddressError extends ProductError {
  override readonly name = 'UndeliverableAddressError';
  readonly kind = 'undeliverableAddress';
}

/** SES sending is paused, for the configuration set or the whole account: nothing goes out until resumed. */
export class SendingPausedError extends ProductError {
  override readonly name = 'SendingPausedError';
  readonly kind = 'sendingPaused';
}

/** The product already sent its daily send budget: nothing more goes out until older sends leave the window. */
export class DailySendBudgetSpentError extends ProductError {
  override readonly name = 'DailySendBudgetSpentError';
  readonly kind = 'dailySendBudgetSpent';
  constructor(override readonly limit: number) {
    super(`Daily send budget of ${limit} cheat sheets spent`);
  }
}

/**
 * Behind CloudFront, a request without the origin secret: it did not come through the
 * distribution (the execute-api address was called directly), so its viewer address is not
 * CloudFront's and is not trusted.
 */
export class UntrustedOriginError extends ProductError {
  override readonly name = 'UntrustedOriginError';
  readonly kind = 'untrustedOrigin';
}

/** The origin secret could not be read from Secrets Manager (unreachable, throttled, or not allowed). */
export class OriginSecretUnavailableError extends ProductError {
  override readonly name = 'OriginSecretUnavailableError';
  readonly kind = 'originSecretUnavailable';
}

/** SES refused because the sender's identity or domain (or, in the SES sandbox, the recipient) is not verified. */
export class SenderNotVerifiedError extends ProductError {
  override readonly name = 'SenderNotVerifiedError';
  readonly kind = 'senderNotVerified';
}

/** SES refused the message for any other reason. */
export class EmailRejectedError extends ProductError {
  override readonly name = 'EmailRejectedError';
  readonly kind = 'emailRejected';
}

/** SES throttled us, failed, or could not be reached: worth retrying later. */
export class EmailServiceUnavailableError extends ProductError {
  override readonly name = 'EmailServiceUnavailableError';
  readonly kind = 'emailServiceUnavailable';
}

/** DynamoDB failed or could not be reached. */
export class StorageUnavailableError extends ProductError {
  override readonly name = 'StorageUnavailableError';
  readonly kind = 'storageUnavailable';
}

/** The cheat-sheet PDF could not be read from S3 (missing, or S3 unreachable). */
export class CheatSheetUnavailableError extends ProductError {
  override readonly name = 'CheatSheetUnavailableError';
  readonly kind = 'cheatSheetUnavailable';
}

/** A required environment variable is missing or malformed. */
export class ConfigurationError extends ProductError {
  override readonly name = 'ConfigurationError';
  readonly kind = 'misconfigured';
}

/** The catalogue's kind of anything thrown: a typed error's own, `unexpected` for the rest. */
export function failureKindOf(error: unknown): FailureKindName {
  return error instanceof ProductError ? error.kind : 'unexpected';
}
