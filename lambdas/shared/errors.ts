/**
 * The typed failures of both functions. They say what went wrong in domain terms only; which
 * HTTP status and which public message each becomes is decided in one place, `http-reply.ts`.
 */

/** The request body is not a usable `{name, email}`: the message is safe to show the visitor. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
}

/** The route was called with another method than POST. */
export class MethodNotAllowedError extends Error {
  override readonly name = 'MethodNotAllowedError';
}

/** The body is not declared as JSON. */
export class UnsupportedMediaTypeError extends Error {
  override readonly name = 'UnsupportedMediaTypeError';
}

/** The browser says another site's page sent the form (Sec-Fetch-Site). */
export class CrossSiteRequestError extends Error {
  override readonly name = 'CrossSiteRequestError';
}

/** The body is larger than a `{name, email}` can ever be. */
export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
}

/** The address already received as many cheat sheets as the daily cap allows. */
export class DailyLimitReachedError extends Error {
  override readonly name = 'DailyLimitReachedError';
  constructor(readonly limit: number) {
    super(`Daily limit of ${limit} cheat sheets reached`);
  }
}

/** The client (one IPv4 address or IPv6 /64) was already sent as many cheat sheets this hour as its limit allows. */
export class ClientLimitReachedError extends Error {
  override readonly name = 'ClientLimitReachedError';
  constructor(readonly limit: number) {
    super(`Client limit of ${limit} cheat sheets an hour reached`);
  }
}

/** The product already sent its daily send budget: nothing more goes out until older sends leave the window. */
export class SendBudgetExhaustedError extends Error {
  override readonly name = 'SendBudgetExhaustedError';
  constructor(readonly budget: number) {
    super(`Daily send budget of ${budget} cheat sheets spent`);
  }
}

/**
 * Behind CloudFront, a request without the origin secret: it did not come through the
 * distribution (the execute-api address was called directly), so its viewer address is not
 * CloudFront's and is not trusted.
 */
export class UntrustedOriginError extends Error {
  override readonly name = 'UntrustedOriginError';
}

/** The origin secret could not be read from Secrets Manager (unreachable, throttled, or not allowed). */
export class OriginSecretUnavailableError extends Error {
  override readonly name = 'OriginSecretUnavailableError';
}

/** SES refused because the sender's identity or domain (or, in the SES sandbox, the recipient) is not verified. */
export class SenderNotVerifiedError extends Error {
  override readonly name = 'SenderNotVerifiedError';
}

/** SES refused the message for any other reason. */
export class EmailRejectedError extends Error {
  override readonly name = 'EmailRejectedError';
}

/** SES throttled us, failed, or could not be reached: worth retrying later. */
export class EmailServiceUnavailableError extends Error {
  override readonly name = 'EmailServiceUnavailableError';
}

/** DynamoDB failed or could not be reached. */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
}

/** The cheat-sheet PDF could not be read from S3 (missing, or S3 unreachable). */
export class CheatSheetUnavailableError extends Error {
  override readonly name = 'CheatSheetUnavailableError';
}

/** A required environment variable is missing or malformed. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}
