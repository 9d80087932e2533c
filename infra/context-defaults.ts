/**
 * The defaults of the context values that size the product (infra/config.ts reads them), each
 * with its reason. The send function's own defaults live in core/config/function-environment.ts;
 * the stack deploys them explicitly, so a function and its alarms never disagree.
 */

/**
 * Defaults sized for a book's marketing page: one form submission is two requests, so 10 per
 * second (20 in a burst) is far above real traffic yet caps what a script can cost.
 */
export const defaultApiThrottle = { rateLimit: 10, burstLimit: 20 } as const;

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
