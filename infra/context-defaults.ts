/**
 * The defaults of the context values that size the product (infra/config.ts reads them), each
 * with its reason. The send function's own defaults live in core/config/function-environment.ts;
 * the stack deploys them explicitly, so a function and its alarms never disagree.
 */
import {
  defaultClientHourlyLimit,
  defaultDailyLimit,
  defaultDailySendBudget,
} from '../core/config/function-environment';

/**
 * Defaults sized for a book's marketing page: one form submission is two requests, so 10 per
 * second (20 in a burst) is far above real traffic yet caps what a script can cost.
 */
export const defaultApiThrottle = { rateLimit: 10, burstLimit: 20 } as const;

/** The send function's own defaults (core/config/function-environment.ts, with their reasons), deployed explicitly. */
export const defaultDailySendCap = defaultDailyLimit;
export const defaultClientHourlySendCap = defaultClientHourlyLimit;
export { defaultDailySendBudget };

/**
 * Sends per hour from one network (an IPv4 /24, an IPv6 /48): three clients' worth, so an office
 * or a carrier NAT behind one network still serves several readers, while an attacker rotating
 * through the 256 (or 65,536) client addresses of one network is held to 30 an hour.
 */
export const defaultNetworkHourlySendCap = 30;

/**
 * Saves per hour from one client: twice its send cap, since a reader may save, fix a typo and
 * save again; a script filling the lead export is stopped at 20 an hour.
 */
export const defaultClientHourlySaveCap = 20;

/** Saves per hour from one network: three clients' worth, as for sends (twice the network's send cap). */
export const defaultNetworkHourlySaveCap = 60;

/**
 * AWS's default Lambda concurrency quota in an established account. New accounts may start at
 * 10: pass the account's real quota so the concurrency alarm (at 80% of it) means something.
 */
export const defaultAccountConcurrencyLimit = 1000;
