/**
 * How long an AWS SDK call may take before it fails, for every client of the functions
 * (lambdas/runtime/aws-clients.ts). Plain data, so the route catalogue (core/api/catalogue/routes.ts)
 * sizes the functions' timeouts from the same numbers: a function must outlive its slowest failing
 * call by enough to send its JSON error, or Lambda kills it and API Gateway answers a bare 500.
 */

export const sdkTimeouts = {
  /** One try and one retry: a third would not fit in the save function's 10 s. */
  maxAttempts: 2,
  /** To open a connection (TCP and TLS) to an AWS endpoint: normally a few milliseconds. */
  connectionTimeoutMs: 1_000,
  /**
   * From sending a request to its response headers, connecting included. DynamoDB and SES answer
   * in well under a second. (The SDK only enforces it with `throwOnRequestTimeout`; without that
   * flag it merely logs a warning.)
   */
  requestTimeoutMs: 3_000,
} as const;

/**
 * The longest back-off the SDK's standard retry strategy waits before the second attempt: up to
 * 1 s after a throttling error, 50 ms after any other (@smithy/core's Retry).
 */
export const maxRetryBackoffMs = 1_000;

/** The longest one SDK call takes to fail: every attempt timing out, plus the back-off. */
export const worstCaseSdkCallMs = sdkTimeouts.maxAttempts * sdkTimeouts.requestTimeoutMs + maxRetryBackoffMs;

/** What a function needs after its slowest SDK call failed: log, build and return the JSON error. */
export const replyMarginMs = 2_000;

/**
 * The time an SES attempt needs left before it starts: its own timeout (connecting included), then
 * the record of its outcome on the request (one UpdateItem, at worst `worstCaseSdkCallMs` when
 * DynamoDB stalls), then the reply: 3 + 7 + 2 = 12 s. An attempt started with less could be
 * accepted by SES and leave its request `sending` when the function is stopped at its deadline.
 */
export const timeNeededBeforeSesMs = sdkTimeouts.requestTimeoutMs + worstCaseSdkCallMs + replyMarginMs;
