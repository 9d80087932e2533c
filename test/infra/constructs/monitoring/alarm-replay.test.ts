/**
 * Replayed incidents, fed to the alarms' own definitions from the synthesized template (period,
 * statistic, threshold, datapoints to alarm, missing-data treatment, metric math, composite rule):
 * what pages, what opens a ticket, and what pages no one.
 *
 * The site's traffic: by day (08:00 to 22:00) 20 CloudFront requests a minute, 4 of them to the
 * routes, one request saved and sent every 5 minutes (168 a day); by night one CloudFront request a minute and one route
 * request every 10 minutes. The unsent check runs every 5 minutes (2 minutes after the saves' minutes) and
 * reports what its own code counts of the requests as stored (newlyUnsentOf), only when not 0, as its handler does.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { alarmsOfTemplates, alarmTimeline, metricKey, type Recording } from '../../support/alarm-replay';
import { createTestApp } from '../../support/synth';
import { canaryCadence } from '../../../../core/config/canary-cadence';
import type { DeliveryStatus } from '../../../../core/data/delivery-status';
import {
  newlyUnsentOf,
  unsentCheckEveryMinutes,
  unsentCheckSlice,
} from '../../../../lambdas/unsent-check/unsent-check';

const { stack } = createTestApp({
  env: { account: '111111111111', region: 'us-east-1' },
  context: { senderDomain: 'example.com', alarmEmail: 'ops@example.com', ticketEmail: 'tickets@example.com' },
});
const alarms = alarmsOfTemplates([Template.fromStack(stack).toJSON() as never]);
const idOf = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as never);
/** Every objective's page, and every objective's ticket. */
const pageIds = stack.monitoring.sloAlarms.fastBurnAlarms.map(idOf);
const ticketIds = stack.monitoring.sloAlarms.slowBurnAlarms.map(idOf);

const minutesPerDay = 24 * 60;
const isDay = (minute: number) => {
  const ofDay = minute % minutesPerDay;
  return ofDay >= 8 * 60 && ofDay < 22 * 60;
};

interface Incident {
  /** The share of requests answered with a 5xx in this minute (CloudFront's and the routes'). */
  readonly failing?: (minute: number) => number;
  /** Extra route requests in this minute refused with a 4xx (a stranger's bad input). */
  readonly refused?: (minute: number) => number;
  /** The state a request saved in this minute stays in when its e-mail never went out (by default it is sent). */
  readonly unsent?: (minute: number) => DeliveryStatus | undefined;
}

/** The replay's minute 0 as a date: the requests' `requested_at` and the unsent check's ticks. */
const replayStart = Date.UTC(2026, 0, 5);
const dateOf = (minute: number) => new Date(replayStart + minute * 60_000);

const minuteOf = (date: Date) => (date.getTime() - replayStart) / 60_000;

/**
 * What the unsent check publishes each minute, from the requests saved in each minute (undefined:
 * no save). Each run reads what its Query reads, the saves of its slice (BETWEEN: both ends), not
 * every request of the replay: the file took 10 s of CPU when each run read them all, 4.6 s now.
 */
function unsentCheckSeries(minutes: number, saved: (minute: number) => DeliveryStatus | undefined) {
  const savedByMinute = Array.from({ length: minutes }, (_, m) => {
    const status = saved(m);
    return status && { requested_at: dateOf(m).toISOString(), delivery_status: status };
  });
  return Array.from({ length: minutes }, (_, m) => {
    if (m % unsentCheckEveryMinutes !== 2) return undefined;
    const { from, before } = unsentCheckSlice(dateOf(m));
    const read = savedByMinute
      .slice(Math.max(0, minuteOf(from)), Math.max(0, minuteOf(before) + 1))
      .filter((request) => request !== undefined);
    const unsent = newlyUnsentOf(read, dateOf(m)).length;
    return unsent > 0 ? unsent : undefined;
  });
}

/** `days` of the site's traffic, with an incident laid over it. */
function traffic(days: number, incident: Incident = {}): { recording: Recording; minutes: number } {
  const minutes = days * minutesPerDay;
  const series = (value: (minute: number) => number | undefined) => Array.from({ length: minutes }, (_, m) => value(m));
  const failing = (m: number) => incident.failing?.(m) ?? 0;
  const refused = (m: number) => incident.refused?.(m) ?? 0;
  const edge = (m: number) => (isDay(m) ? 20 : 1) + refused(m);
  const routes = (m: number) => (isDay(m) ? 4 : m % 10 === 0 ? 1 : 0) + refused(m);
  const ownRoutes = (m: number) => routes(m) - refused(m);
  const saves = (m: number) => isDay(m) && m % 5 === 0;
  const recording: Recording = {
    [metricKey('AWS/CloudFront', 'Requests')]: series(edge),
    // A percentage of all of CloudFront's requests that minute, the stranger's refused ones included.
    [metricKey('AWS/CloudFront', '5xxErrorRate')]: series((m) => (100 * failing(m) * (edge(m) - refused(m))) / edge(m)),
    [metricKey('AWS/ApiGateway', 'Count')]: series((m) => (routes(m) > 0 ? routes(m) : undefined)),
    [metricKey('AWS/ApiGateway', '5xx')]: series((m) => (routes(m) > 0 ? ownRoutes(m) * failing(m) : undefined)),
    [metricKey('AWS/ApiGateway', '4xx')]: series((m) => (routes(m) > 0 ? refused(m) : undefined)),
    // Every request answered in time (the trimmed count over the objective is 0).
    [metricKey('AWS/ApiGateway', 'Latency')]: series((m) => (routes(m) > 0 ? 0 : undefined)),
    [metricKey('First100DaysSite', 'RequestSaved')]: series((m) => (saves(m) ? 1 - failing(m) : undefined)),
    [metricKey('First100DaysSite', 'CheatSheetSent')]: series((m) =>
      saves(m) && !incident.unsent?.(m) ? 1 - failing(m) : undefined,
    ),
    [metricKey('First100DaysSite', 'UnsentRequests')]: unsentCheckSeries(minutes, (m) =>
      saves(m) ? (incident.unsent?.(m) ?? 'sent') : undefined,
    ),
  };
  return { recording, minutes };
}

function replay(days: number, incident: Incident, from = 1, step = 1) {
  const { recording, minutes } = traffic(days, incident);
  const timeline = alarmTimeline(alarms, recording, minutes, step, from);
  const minutesOf = (ids: readonly string[]) => ids.flatMap((id) => timeline.get(id) ?? []).sort((a, b) => a - b);
  return { pages: minutesOf(pageIds), tickets: minutesOf(ticketIds), timeline };
}

/** Three days of history before the incident, at 14:00 on the fourth. */
const incidentStart = 3 * minutesPerDay + 14 * 60;

describe('replayed incidents', () => {
  test('a 10-minute total outage pages within 5 minutes', () => {
    const { pages } = replay(
      4,
      { failing: (m) => (m >= incidentStart && m < incidentStart + 10 ? 1 : 0) },
      incidentStart - 30,
    );
    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0] - incidentStart).toBeLessThanOrEqual(5);
    expect(pages[0]).toBeGreaterThan(incidentStart);
  });

  test('the page names the objective that burns: 5xx page the availability objective alone', () => {
    const { timeline } = replay(
      4,
      { failing: (m) => (m >= incidentStart && m < incidentStart + 10 ? 1 : 0) },
      incidentStart - 30,
    );
    const paged = pageIds.filter((id) => (timeline.get(id) ?? []).length > 0);
    expect(paged).toEqual([idOf(stack.monitoring.sloAlarms.byObjective.get('availability')!.fastBurnAlarm)]);
  });

  test('the page clears within the hour after a 10-minute outage ends', () => {
    const { pages } = replay(
      4,
      { failing: (m) => (m >= incidentStart && m < incidentStart + 10 ? 1 : 0) },
      incidentStart - 30,
    );
    expect(pages.at(-1)! - (incidentStart + 10)).toBeLessThanOrEqual(60);
  });

  test('a 2% error rate for 6 hours pages', () => {
    const { pages } = replay(
      4,
      { failing: (m) => (m >= incidentStart && m < incidentStart + 6 * 60 ? 0.02 : 0) },
      incidentStart - 30,
    );
    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0]).toBeLessThan(incidentStart + 6 * 60);
  });

  test('a slow drift to 0.2% errors opens a ticket and pages no one', () => {
    // Rising over a day from nothing to 0.2%, then staying there for four days.
    const drift = (m: number) => 0.002 * Math.min(1, m / minutesPerDay);
    const { pages, tickets } = replay(5, { failing: drift }, 1, 5);
    expect(tickets.length).toBeGreaterThan(0);
    expect(pages).toEqual([]);
  });

  test('a single failed request on an idle night pages no one and opens no ticket', () => {
    const threeAm = 3 * minutesPerDay + 3 * 60;
    const { pages, tickets } = replay(4, { failing: (m) => (m === threeAm ? 1 : 0) }, threeAm - 30, 1);
    expect(pages).toEqual([]);
    expect(tickets).toEqual([]);
  });

  test("a stranger's flood of bad input pages no one, and fires no alarm", () => {
    // 500 refused requests a minute for half an hour, at night, through CloudFront to the routes.
    const flood = (m: number) => (m >= incidentStart - 12 * 60 && m < incidentStart - 11.5 * 60 ? 500 : 0);
    const { timeline } = replay(4, { refused: flood }, incidentStart - 13 * 60, 1);
    expect([...timeline.keys()]).toEqual([]);
  });
});

describe('requests that never went out', () => {
  const deliveryPage = () => idOf(stack.monitoring.sloAlarms.byObjective.get('delivery')!.fastBurnAlarm);
  const yesterday = incidentStart - minutesPerDay;

  test('two requests stuck in `sending` since yesterday page no one and open no ticket as the saves come in', () => {
    // Two of yesterday's 14:00 hour's twelve saves, stuck: a real burn then (1 in 6), which may page that hour.
    const stuck = (m: number) => (m === yesterday || m === yesterday + 5 ? 'sending' : undefined);
    // From yesterday's 16:00, once that hour has left the page's window, to the end of today: every save since is sent.
    const { pages, tickets } = replay(4, { unsent: stuck }, yesterday + 2 * 60, 1);

    expect([pages, tickets]).toEqual([[], []]);
  });

  test('a delivery outage (every save of an hour unsent) pages the delivery objective within half an hour', () => {
    const outage = (m: number) => (m >= incidentStart && m < incidentStart + 60 ? 'requested' : undefined);
    const { timeline } = replay(4, { unsent: outage }, incidentStart - 30, 1);
    const pages = timeline.get(deliveryPage()) ?? [];

    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0]! - incidentStart).toBeLessThanOrEqual(30);
  });
});

describe('the canary on a night with no readers', () => {
  /**
   * Only the canary on the site: a run every 5 minutes loads the page and saves (two CloudFront
   * requests, one route request), one in six also solves the challenge and sends (two more route
   * requests). A broken API answers its route requests 5xx, and the run fails (its Lambda Errors);
   * a page broken with a 200 (its heading gone, say) fails the run with no 5xx anywhere.
   */
  function canaryNight(broken: (minute: number) => boolean, { answers = 500 }: { readonly answers?: 200 | 500 } = {}) {
    const failing = (m: number) => answers === 500 && broken(m);
    const minutes = 2 * minutesPerDay;
    const run = (m: number) => m % canaryCadence.checkEveryMinutes === 0;
    const routes = (m: number) => (m % canaryCadence.sendEveryMinutes === 0 ? 3 : 1);
    const series = (value: (minute: number) => number) =>
      Array.from({ length: minutes }, (_, m) => (run(m) ? value(m) : undefined));
    const recording: Recording = {
      [metricKey('AWS/CloudFront', 'Requests')]: series((m) => 1 + routes(m)),
      [metricKey('AWS/CloudFront', '5xxErrorRate')]: series((m) =>
        failing(m) ? (100 * routes(m)) / (1 + routes(m)) : 0,
      ),
      [metricKey('AWS/ApiGateway', 'Count')]: series(routes),
      [metricKey('AWS/ApiGateway', '5xx')]: series((m) => (failing(m) ? routes(m) : 0)),
      [metricKey('AWS/ApiGateway', 'Latency')]: series(() => 0),
      [metricKey('AWS/Lambda', 'Errors')]: series((m) => (broken(m) ? 1 : 0)),
    };
    const timeline = alarmTimeline(alarms, recording, minutes, 1, minutesPerDay);
    const minutesOf = (ids: readonly string[]) => ids.flatMap((id) => timeline.get(id) ?? []).sort((a, b) => a - b);
    return { pages: minutesOf(pageIds), tickets: minutesOf(ticketIds) };
  }
  const threeAm = minutesPerDay + 3 * 60 + 2;

  test('the API broken at 3 a.m. pages within 15 minutes', () => {
    const { pages } = canaryNight((m) => m >= threeAm);

    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0]! - threeAm).toBeLessThanOrEqual(15);
  });

  test('a page served whole but wrong (200, no 5xx anywhere) pages within 15 minutes: the canary fails', () => {
    const { pages } = canaryNight((m) => m >= threeAm, { answers: 200 });

    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0]! - threeAm).toBeLessThanOrEqual(15);
  });

  test('the same night, healthy, pages no one and opens no ticket', () => {
    const { pages, tickets } = canaryNight(() => false);

    expect([pages, tickets]).toEqual([[], []]);
  });

  test('one failed run alone (a blip) pages no one', () => {
    const { pages } = canaryNight((m) => m === threeAm + 3);

    expect(pages).toEqual([]);
  });
});
