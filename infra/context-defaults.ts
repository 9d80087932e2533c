/**
 * The defaults of the context values that size the product (infra/config.ts reads them), each
 * with its reason. The send function's own defaults live in core/config/function-environment.ts;
 * the stack deploys them explicitly, so a function and its alarms never disagree.
 */

/**
/**
 * The routes' own rates added up (the route throttle rule): 32 a second (64 in a burst). One form
 * submission is three requests (save, challenge, send) of 8 a second each, so a launch's peak of 6
 * readers a second is served (core/config/launch-capacity.ts), and each view of `/` one request of
 * the funnel's beacon, 6 a second; what a script can cost stays capped (docs/abuse.md); at 0.2 s
 * of Lambda a request it needs 7 concurrent executions, within a new account's 10 with the
 * queues' 3.
 */
export const defaultApiThrottle = { rateLimit: 32, burstLimit: 64 } as const;

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
