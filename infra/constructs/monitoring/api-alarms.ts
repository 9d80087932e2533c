import type { Duration } from 'aws-cdk-lib';
import type { IHttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { fiveMinutes, routeId, routeLatency } from './metrics';
import { alarmRunbook, describeAlarm } from './runbook';

/**
 * 4xx replies (429 included) in five minutes that page: real readers make few (the page checks the
 * form before it posts, a cap refuses a reader's 11th send of an hour), so 100, one every 3 s, is
 * a spray of requests or a flood the route throttles answer with 429 (runbook.ts, Api4xx).
 */
export const clientErrorAlarmThreshold = 100;

export interface ApiAlarmsProps extends AlarmFamilyProps {
  /** The API's stage: its 5xx and each route's latency. */
  readonly stage: IHttpStage;
  /** Each route answered with POST, and the timeout of the function behind it. */
  readonly routes: readonly { readonly route: string; readonly timeout: Duration }[];
}

/** What readers of the API see: 5xx replies, 4xx replies (refusals and throttling), and each route's p99 latency against its function's timeout. */
export class ApiAlarms extends AlarmFamily {
  public readonly serverErrorAlarm: Alarm;
  /** The API's 4xx count, the throttles' 429 included. */
  public readonly clientErrorAlarm: Alarm;
  /** By route (`/api/save-request` …). */
  public readonly latencyAlarms: ReadonlyMap<string, Alarm>;

  constructor(scope: Construct, id: string, props: ApiAlarmsProps) {
    super(scope, id, props);
    // Every 5xx is a reader who saw an error. No requests, no errors: missing data is fine.
    this.serverErrorAlarm = this.addAlarm('Api5xx', {
      metric: props.stage.metricServerError({ period: fiveMinutes, statistic: 'Sum' }),
      threshold: 3,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        'The API answered 3 or more 5xx replies in 5 minutes: readers see an error instead of the cheat sheet.',
        alarmRunbook.Api5xx,
      ),
    });
    // API Gateway counts its own 429 (a route's throttle) among the 4xx, as the handlers' refusals.
    this.clientErrorAlarm = this.addAlarm('Api4xx', {
      metric: props.stage.metricClientError({ period: fiveMinutes, statistic: 'Sum' }),
      threshold: clientErrorAlarmThreshold,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        `The API answered ${clientErrorAlarmThreshold} or more 4xx replies (429 included) in 5 minutes: a spray of requests, or a flood the route throttles refuse.`,
        alarmRunbook.Api4xx,
      ),
    });
    const latencyAlarms = new Map<string, Alarm>();
    for (const { route, timeout } of props.routes) {
      // Half the timeout (5 s, 7.5 s): runbook.ts, RouteLatency.
      const thresholdMs = timeout.toMilliseconds() / 2;
      const alarm = this.addAlarm(`Latency${routeId(route)}`, {
        metric: routeLatency(props.stage, route, 'p99'),
        threshold: thresholdMs,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: describeAlarm(
          `POST ${route} took ${thresholdMs} ms or more at p99 in 2 of 3 five-minute periods: half its ${timeout.toSeconds()} s timeout, so a service it calls is slow or retrying.`,
          alarmRunbook.RouteLatency,
        ),
      });
      latencyAlarms.set(route, alarm);
    }
    this.latencyAlarms = latencyAlarms;
  }
}
