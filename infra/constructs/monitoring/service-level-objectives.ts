/**
 * What readers feel, as service level objectives over 30 days, and the burn-rate alerts on them
 * (the SRE workbook's multi-window, multi-burn-rate alerts). Plain data: the alarms
 * (slo-alarms.ts), the replay test and docs/operate.md read the same numbers.
 *
 * A burn rate is how fast the error budget goes: 1× spends the 30 days' budget in 30 days, 14.4×
 * spends 2% of it in an hour, 6× spends 5% of it in six hours.
 */

import { canaryCadence } from '../../../core/config/canary-cadence';

/** The period every objective is stated over. */
export const objectiveDays = 30;

export interface ServiceLevelObjective {
  /** The share of events that must be good over 30 days. */
  readonly target: number;
  /** What counts as an event, and as a bad one. */
  readonly sli: string;
  /** Why this target. */
  readonly reason: string;
}

/** The latency a route must answer within, each route (the send, the slowest, included). */
export const routeLatencyObjectiveMs = 3000;

export const serviceLevelObjectives = {
  availability: {
    target: 0.999,
    sli: "requests readers make through CloudFront (the site's pages and the three routes) answered without a 5xx: CloudFront's 5xx error rate, which the routes' own 5xx reach readers through",
    reason:
      'a static site and three small functions on managed services: 99.9% leaves 43 minutes of errors a month, more than a regional incident takes, and no reader should see an error more often than one request in a thousand',
  },
  delivery: {
    target: 0.99,
    sli: 'requests saved that are still unsent 15 minutes later (the unsent check counts each once, 15 to 20 minutes after its save), against requests saved',
    reason:
      "a reader who asked for the cheat sheet and has none after 15 minutes has lost it: one in a hundred may need the operator's resend (SES retries, a send whose outcome is unknown), not more",
  },
  latency: {
    target: 0.99,
    sli: `route requests answered within ${routeLatencyObjectiveMs} ms (API Gateway's latency of the stage: the save, the send and the no-script form), against route requests`,
    reason: `a warm route answers in tens of milliseconds and the send in well under a second (SES's call); a cold start adds about 0.4 s. Past ${routeLatencyObjectiveMs} ms an SDK call is retrying or a service is slow, and a reader waiting on the button gives up; one in a hundred may be that slow (cold starts after a quiet hour, one retried call)`,
  },
} as const satisfies Record<string, ServiceLevelObjective>;

export type ObjectiveName = keyof typeof serviceLevelObjectives;
export const objectiveNames = Object.keys(serviceLevelObjectives) as ObjectiveName[];

/** The error budget of an objective: the share of events allowed to be bad. */
export function errorBudget(name: ObjectiveName): number {
  return Math.round((1 - serviceLevelObjectives[name].target) * 1e6) / 1e6;
}

/** One window of a burn-rate alert: its length and the burn rate that breaches it. */
export interface BurnWindow {
  /** `1h`, `3d`: how the alarm's description and the dashboard name it. */
  readonly label: string;
  readonly minutes: number;
  readonly burnRate: number;
  /**
   * Counts only when it holds enough events that one failure cannot breach it (minimumEvents);
   * false: from the first event.
   */
  readonly gated: boolean;
}

/**
 * The page: 14.4× over one hour, 2% of the 30 days' budget spent in that hour (the SRE workbook's
 * "multiple burn rate alerts", on its fast window alone). One metric alarm an objective, which
 * names the objective in its subject: 0.20 USD a month (0.30 with the canary's metric). The
 * workbook's short windows (5 minutes, 30 minutes) and its 6-hour page need three more window
 * alarms an objective and a composite alarm (0.50 USD) to join them: 3.30 USD a month more for the
 * three objectives, two thirds of what the whole stage may cost at rest (5 USD). What that costs
 * instead: a page stays in alarm until the hour's burn falls below 14.4× (at most an hour after
 * an outage ends: its OK says so), and a burn between 1× and 14.4× opens the 3-day ticket, not a
 * page (at 6×, within 12 hours).
 */
export const fastBurnWindow: BurnWindow & { readonly budgetSpent: number } = {
  label: '1h',
  minutes: 60,
  burnRate: 14.4,
  gated: true,
  budgetSpent: 0.02,
};

/**
 * The canary's runs (lambdas/canary/): a reader the stack sends itself every 5 minutes, so the
 * objectives see an outage when no reader is on the site. Its failed runs are its Lambda Errors
 * (free). Counted by the availability objective's page, over its hour (its burn is the larger of
 * the readers' and the canary's, which the readers' gate, minimumEvents, does not hold back): one
 * more alarm metric, 0.10 USD a month. So an outage the canary sees (the page, its heading or
 * headers, the API, a send SES refuses, a delivery that never came) pages within 15 minutes with
 * no reader on the site, whatever status the broken part answers.
 */
export const canaryObjective = {
  target: 0.99,
  sli: "the canary's runs that found the page, the save, the send and the earlier e-mail's delivery working, against its runs (one every 5 minutes)",
  reason:
    'at 12 runs an hour, one failed run burns 8.3x (a network blip, a cold start past the timeout: no page) and two burn 16.7x, past the 14.4x of the page: two failed runs within the hour page, 10 minutes after an outage begins at most',
  windows: ['1h'],
} as const;

/** Whether the window counts the canary's runs. */
export const countsCanary = (window: Pick<BurnWindow, 'label'>) =>
  (canaryObjective.windows as readonly string[]).includes(window.label);

/** A ticket: 1× over 3 days, the whole budget spent by the end of the 30 days at this pace. */
export const slowBurnWindow: BurnWindow = { label: '3d', minutes: 3 * 24 * 60, burnRate: 1, gated: true };

/**
 * The fewest events a gated window must hold: the smallest count at which ONE bad event stays
 * below the window's burn rate. Below it one failed request (one reader at 3 a.m. on an idle site)
 * would page; at it, a burn takes at least two bad events, and many more as the count grows.
 */
export function minimumEvents(name: ObjectiveName, window: Pick<BurnWindow, 'burnRate' | 'gated'>): number {
  if (!window.gated) return 1;
  return Math.floor(1 / (window.burnRate * errorBudget(name))) + 1;
}

/** The metric ids every SLO alarm's expression reads (slo-alarms.ts builds the metrics). */
export const sliMetricIds = {
  /** CloudFront's 5xxErrorRate, Average, in percent (where CloudFront's metrics are). */
  edgeErrorRate: 'edgeErrorRate',
  /** The API's 5xx count (where CloudFront's metrics are not: the routes' own). */
  routeErrors: 'routeErrors',
  /** The API's request count (every route). */
  routeRequests: 'routeRequests',
  /** The API's latency, trimmed count of requests at or over the objective: `TC(3000:)`. */
  slowRequests: 'slowRequests',
  /** The requests newly unsent 15 minutes after their save (the unsent check, each once), Sum. */
  unsent: 'unsent',
  /** Requests saved, Sum. */
  saved: 'saved',
  /** The canary's failed runs: its function's Errors, Sum. */
  canaryFailures: 'canaryFailures',
} as const;

/** Where the availability SLI comes from: CloudFront's error rate, or (outside its region) the routes' 5xx. */
export type AvailabilitySource = 'cloudFront' | 'routes';

/**
 * The burn rate of every objective over one window, as one CloudWatch metric-math expression that
 * returns the largest: an alarm on it breaches when any objective burns at the window's rate.
 * Each objective counts only when its events reach the window's minimum (at least 1, so the
 * division IF keeps never divides by zero); missing data is zero (no requests, no errors).
 */
export function burnExpressions(
  window: Pick<BurnWindow, 'burnRate' | 'gated' | 'minutes'>,
  availability: AvailabilitySource,
  { canary = false }: { readonly canary?: boolean } = {},
): { readonly id: string; readonly expression: string }[] {
  const m = sliMetricIds;
  const requests = `FILL(${m.routeRequests}, 0)`;
  const availabilityBad =
    availability === 'cloudFront' ? `FILL(${m.edgeErrorRate}, 0) / 100` : `FILL(${m.routeErrors}, 0) / ${requests}`;
  const gate = (name: ObjectiveName) => minimumEvents(name, window);
  const budget = (name: ObjectiveName) => errorBudget(name);
  const edgeBurn = `IF(${requests} >= ${gate('availability')}, ${availabilityBad} / ${budget('availability')}, 0)`;
  // The canary's runs in the window are known from its schedule: no second metric (and alarm metric) to count them.
  const canaryBurn = `FILL(${m.canaryFailures}, 0) / ${Math.max(1, window.minutes / canaryCadence.checkEveryMinutes)} / ${Math.round((1 - canaryObjective.target) * 1e6) / 1e6}`;
  return [
    {
      id: 'availabilityBurn',
      // CloudFront serves more requests than the routes: a window with this many route requests has
      // at least as many behind its error rate. The canary's failed runs count where it is counted.
      expression: canary ? `MAX([${edgeBurn}, ${canaryBurn}])` : edgeBurn,
    },
    {
      id: 'latencyBurn',
      expression: `IF(${requests} >= ${gate('latency')}, FILL(${m.slowRequests}, 0) / ${requests} / ${budget('latency')}, 0)`,
    },
    {
      id: 'deliveryBurn',
      expression: `IF(FILL(${m.saved}, 0) >= ${gate('delivery')}, FILL(${m.unsent}, 0) / FILL(${m.saved}, 0) / ${budget('delivery')}, 0)`,
    },
    { id: 'burn', expression: 'MAX([availabilityBurn, latencyBurn, deliveryBurn])' },
  ];
}
