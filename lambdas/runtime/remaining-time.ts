/**
 * The time left in an invocation: Lambda's `getRemainingTimeInMillis`, or, where a handler is
 * called without a context (the local twin, the tests), the time left until the function's own
 * timeout from the route catalogue would have ended it, counted from the call.
 */

import type { Context } from 'aws-lambda';

export type RemainingTime = () => number;

export function remainingTimeOf(
  context: Pick<Context, 'getRemainingTimeInMillis'> | undefined,
  timeoutSeconds: number,
): RemainingTime {
  if (context && typeof context.getRemainingTimeInMillis === 'function') {
    return () => context.getRemainingTimeInMillis();
  }
  const deadline = Date.now() + timeoutSeconds * 1000;
  return () => Math.max(0, deadline - Date.now());
}
