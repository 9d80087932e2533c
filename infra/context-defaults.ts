/**
 * The defaults of the context values that size the product (infra/config.ts reads them), each
 * with its reason. The send function's own defaults live in core/config/function-environment.ts;
 * the stack deploys them explicitly, so a function and its alarms never disagree.
 */

/**
 * Defaults sized for a book's marketing page: one form submission is three requests (save,
 * challenge, send), so 14 per second (28 in a burst) is far above real traffic yet caps what a
 * script can cost; it is the routes' own rates added up (the route throttle rule).
 */
export const defaultApiThrottle = { rateLimit: 14, burstLimit: 28 } as const;

/** The functions' own defaults of the caps and the budget, with their reasons, deployed explicitly. */
export {
  defaultAddressDailyCap,
  defaultClientHourlySendCap,
  defaultNetworkHourlySendCap,
  defaultDailySendBudget,
  defaultClientHourlySaveCap,
  defaultNetworkHourlySaveCap,
} from '../core/config/function-environment';

/**
 * AWS's default Lambda concurrency quota in an established account. New accounts may start at
 * 10: pass the account's real quota so the concurrency alarm (at 80% of it) means something.
 */
export const defaultAccountConcurrencyLimit = 1000;
