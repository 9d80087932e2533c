/**
 * What the default limits serve and what they let an attacker spend, computed from the defaults
 * themselves (the caps and the budget in function-environment.ts, the routes' throttles in the
 * catalogue), so docs/abuse.md and docs/capacity.md quote figures a test recomputes, and the
 * preflight checks an account against the same arithmetic.
 */

import { productRoutes } from '../api/catalogue/routes';
import {
  defaultAddressDailyCap,
  defaultClientHourlySaveCap,
  defaultClientHourlySendCap,
  defaultDailySendBudget,
  defaultNetworkHourlySaveCap,
  defaultNetworkHourlySendCap,
} from './function-environment';

/**
 * The launch the defaults must serve in full: 5,000 distinct readers (each its own client, network
 * and address, the proof of work solved) within one hour, the most valuable hour the site will have.
 */
export const launchHour = { readers: 5000, seconds: 3600 } as const;

/**
 * The readers a second the deployed routes must take at a launch's peak: the rate the local twin
 * must serve too (6 a second), over four times the launch hour's average of 1.4, since a launch
 * mailing's readers answer in its first minutes.
 */
export const launchPeakReadersPerSecond = 6;

/** What the page calls per reader, one request each: save, the challenge, then send. */
export const readerRoutes = ['saveRequest', 'cheatSheetChallenge', 'sendCheatSheet'] as const;

/**
 * Lambda's busy seconds per API request, for the concurrency a rate needs (rate × duration): a
 * reader's three first replies measured 151 + 119 + 243 = 513 ms, cold starts included, on the
 * 2-core machine (docs/performance.md, cold start), so 0.2 s a request is a warm request's upper end.
 */
export const lambdaSecondsPerRequest = 0.2;

/**
 * Concurrent executions the queue-driven functions may hold besides the routes': the send queue's
 * sender (its event source's maximum concurrency, 2, Lambda's smallest) and the reader's delivery
 * event (one short invocation a lead).
 */
export const backgroundConcurrency = 3;

/** The limits an attacker meets, as deployed by default (each overridable by a context value). */
export interface LimitSettings {
  readonly clientHourlySendCap: number;
  readonly networkHourlySendCap: number;
  readonly clientHourlySaveCap: number;
  readonly networkHourlySaveCap: number;
  readonly addressDailyCap: number;
  readonly dailySendBudget: number;
  /** The send route's and the save route's throttles, requests a second. */
  readonly sendRouteRate: number;
  readonly saveRouteRate: number;
}

export const defaultLimitSettings: LimitSettings = {
  clientHourlySendCap: defaultClientHourlySendCap,
  networkHourlySendCap: defaultNetworkHourlySendCap,
  clientHourlySaveCap: defaultClientHourlySaveCap,
  networkHourlySaveCap: defaultNetworkHourlySaveCap,
  addressDailyCap: defaultAddressDailyCap,
  dailySendBudget: defaultDailySendBudget,
  sendRouteRate: productRoutes.sendCheatSheet.throttle.rateLimit,
  saveRouteRate: productRoutes.saveRequest.throttle.rateLimit,
};

/** Readers a second the routes' throttles serve: the slowest of the routes a reader calls once each. */
export function readersPerSecondServed(): number {
  return Math.min(...readerRoutes.map((name) => productRoutes[name].throttle.rateLimit));
}

/** The stage's rate the routes' throttles add up to (the route throttle rule makes it the ceiling). */
export function stageRate(): number {
  return Object.values(productRoutes).reduce((sum, route) => sum + route.throttle.rateLimit, 0);
}

/** Lambda concurrency a stage's rate needs: the routes' at that rate, plus the queue-driven functions'. */
export function concurrencyNeeded(apiRateLimit: number): number {
  return Math.ceil(apiRateLimit * lambdaSecondsPerRequest) + backgroundConcurrency;
}

/** Readers a second a concurrency quota serves, its queues' share aside (rounded down). */
export function readersPerSecondWithin(concurrency: number): number {
  return Math.floor((concurrency - backgroundConcurrency) / (readerRoutes.length * lambdaSecondsPerRequest));
}

/**
 * SES's maximum send rate (e-mails a second) that sends a launch hour's readers within that hour:
 * the queue paces the sends at the account's rate, so a lower one only delays them, past the
 * delivery objective's 15 minutes once the backlog grows.
 */
export function sesRateNeeded(): number {
  return Math.ceil(launchHour.readers / launchHour.seconds);
}

/** What the launch needs of each limit, against what the limit allows. */
export function launchFigures(limits: LimitSettings = defaultLimitSettings) {
  return {
    readersPerSecondServed: readersPerSecondServed(),
    readersPerHourServed: readersPerSecondServed() * launchHour.seconds,
    sendsPerDayAllowed: limits.dailySendBudget,
    concurrencyAtPeak:
      Math.ceil(launchPeakReadersPerSecond * readerRoutes.length * lambdaSecondsPerRequest) + backgroundConcurrency,
    concurrencyAtStageRate: concurrencyNeeded(stageRate()),
    sesRateNeeded: sesRateNeeded(),
  };
}

/** An attacker's reach: how many clients (IPv4 addresses), in how many networks (IPv4 /24s). */
export interface Attacker {
  readonly name: string;
  readonly clients: number;
  readonly networks: number;
}

export const attackers: readonly Attacker[] = [
  { name: 'one client', clients: 1, networks: 1 },
  { name: 'one /24', clients: 256, networks: 1 },
  { name: 'a thousand clients', clients: 1000, networks: 1000 },
];

/**
 * The most an attacker sends and saves in an hour and in 24 hours: each client's and each
 * network's caps, under the route's throttle, and for sends under the daily budget too; and the
 * distinct mailboxes those sends need (the per-address cap).
 */
export function attackerFigures(attacker: Attacker, limits: LimitSettings = defaultLimitSettings) {
  const hourly = (clientCap: number, networkCap: number, routeRate: number) =>
    Math.min(attacker.clients * clientCap, attacker.networks * networkCap, routeRate * 3600);
  const sendsPerHour = Math.min(
    hourly(limits.clientHourlySendCap, limits.networkHourlySendCap, limits.sendRouteRate),
    limits.dailySendBudget,
  );
  const sendsPerDay = Math.min(sendsPerHour * 24, limits.dailySendBudget);
  const savesPerHour = hourly(limits.clientHourlySaveCap, limits.networkHourlySaveCap, limits.saveRouteRate);
  return {
    sendsPerHour,
    sendsPerDay,
    mailboxesPerDay: Math.ceil(sendsPerDay / limits.addressDailyCap),
    savesPerHour,
    savesPerDay: savesPerHour * 24,
  };
}
