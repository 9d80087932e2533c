import type { Duration } from 'aws-cdk-lib';
import type { IHttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { fiveMinutes, routeId, routeLatency } from './metrics';
import { alarmRunbook, describeAlarm } from './runbook';

export interface ApiAlarmsProps extends AlarmFamilyProps {
  /** The API's stage: its 5xx and each route's latency. */
  readonly stage: IHttpStage;
  /** Each route, with its entry's method, and the timeout of the function behind it. */
  readonly routes: readonly { readonly route: string; readonly method: string; readonly timeout: Duration }[];
}

/**
 * What readers of the API see: 5xx replies and each route's p99 latency against its function's
 * timeout. No alarm counts 4xx: every one is a visitor's own request refused (a typo, a cap, a
 * throttle's 429), so any stranger could page the operator with them; the dashboard graphs them,
 * and the web ACL's per-client limit and the direct-calls alarm cover a flood (docs/abuse.md).
 */
export class ApiAlarms extends AlarmFamily {
  public readonly serverErrorAlarm: Alarm;
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
    const latencyAlarms = new Map<string, Alarm>();
    for (const { route, method, timeout } of props.routes) {
      // Half the timeout (5 s, 7.5 s): runbook.ts, RouteLatency.
      const thresholdMs = timeout.toMilliseconds() / 2;
      const alarm = this.addAlarm(`Latency${routeId(route)}`, {
        metric: routeLatency(props.stage, { method, route }, 'p99'),
        threshold: thresholdMs,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: describeAlarm(
          `${method} ${route} took ${thresholdMs} ms or more at p99 in 2 of 3 five-minute periods: half its ${timeout.toSeconds()} s timeout, so a service it calls is slow or retrying.`,
          alarmRunbook.RouteLatency,
        ),
      });
      latencyAlarms.set(route, alarm);
    }
    this.latencyAlarms = latencyAlarms;
  }
}
