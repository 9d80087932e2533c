import { Duration } from 'aws-cdk-lib';
import type { IHttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import {
  AlarmRule,
  AlarmState,
  CompositeAlarm,
  MathExpression,
  Metric,
  TreatMissingData,
  type Alarm,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import {
  deliveryServices,
  functionServices,
  metricDimensions,
  metricsNamespace,
  outcomeMetrics,
  unsentRequestsMetric,
} from '../../../core/observability/product-metrics';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { cloudFrontErrorRate } from './metrics';
import { alarmRunbook, describeAlarm, runbookDescription } from './runbook';
import {
  burnExpressions,
  errorBudget,
  fastBurnPairs,
  minimumEvents,
  routeLatencyObjectiveMs,
  slowBurnWindow,
  sliMetricIds,
  type AvailabilitySource,
  type BurnWindow,
} from './service-level-objectives';

export interface SloAlarmsProps extends AlarmFamilyProps {
  /** The API's stage: the routes' requests, 5xx and latency. */
  readonly stage: IHttpStage;
  /**
   * The distribution, when its metrics are in this stack's region (us-east-1): the availability
   * objective reads CloudFront's error rate, which the routes' 5xx reach readers through.
   *
   * @default - the routes' own 5xx (an edge stack in us-east-1 alarms on CloudFront's: EdgeAlarms)
   */
  readonly distribution?: IDistribution;
}

/**
 * The three objectives' burn-rate alarms (service-level-objectives.ts): a window alarm for each of
 * the four windows of the fast burn, one composite alarm that pages when both windows of a pair
 * breach, and the slow burn's ticket. Each window alarm watches all three objectives at once (the
 * largest burn), so the stage keeps to ten alarms.
 */
export class SloAlarms extends AlarmFamily {
  /** By label: `1h`, `5m`, `6h`, `30m`. */
  public readonly windowAlarms: ReadonlyMap<string, Alarm>;
  public readonly fastBurnAlarm: CompositeAlarm;
  public readonly slowBurnAlarm: Alarm;
  public readonly availabilitySource: AvailabilitySource;

  constructor(scope: Construct, id: string, props: SloAlarmsProps) {
    super(scope, id, props);
    this.availabilitySource = props.distribution ? 'cloudFront' : 'routes';
    const windowAlarms = new Map<string, Alarm>();
    const windowAlarm = (window: BurnWindow) => {
      const alarm = this.addAlarm(`SloWindow${window.label}`, {
        metric: burnMetric(props, this.availabilitySource, window),
        threshold: window.burnRate,
        // No requests, no errors: a quiet window is a good one.
        treatMissingData: TreatMissingData.NOT_BREACHING,
        notifies: false,
        description: describeAlarm(
          `Over the last ${windowWords(window)}, an objective's error budget burns at ${window.burnRate} times its rate or faster${gateWords(window)}. Pages only through SloFastBurn, with the other window of its pair.`,
          alarmRunbook.SloBurnWindow,
        ),
      });
      windowAlarms.set(window.label, alarm);
      return alarm;
    };
    const pairs = fastBurnPairs.map(({ long, short }) =>
      AlarmRule.allOf(
        AlarmRule.fromAlarm(windowAlarm(long), AlarmState.ALARM),
        AlarmRule.fromAlarm(windowAlarm(short), AlarmState.ALARM),
      ),
    );
    this.windowAlarms = windowAlarms;

    const fastBurnId = 'SloFastBurn';
    this.fastBurnAlarm = new CompositeAlarm(this, fastBurnId, {
      compositeAlarmName: this.alarmNameOf(fastBurnId),
      alarmRule: AlarmRule.anyOf(...pairs),
      alarmDescription: runbookDescription(
        describeAlarm(
          fastBurnPairs
            .map(
              ({ long, short, budgetSpent }) =>
                `${long.burnRate}x over ${windowWords(long)} and ${windowWords(short)} (${budgetSpent * 100}% of the budget in ${windowWords(long)})`,
            )
            .join(', or ') + ': readers are failing now.',
          alarmRunbook.SloFastBurn,
        ),
        this.runbookUrl,
      ),
    });
    this.notify(this.fastBurnAlarm, 'page');

    this.slowBurnAlarm = this.addAlarm('SloSlowBurn', {
      metric: burnMetric(props, this.availabilitySource, slowBurnWindow),
      threshold: slowBurnWindow.burnRate,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        `Over the last 3 days, an objective's error budget burns at its own rate or faster${gateWords(slowBurnWindow)}: at this pace it is spent within the 30 days.`,
        alarmRunbook.SloSlowBurn,
      ),
    });
  }
}

/** `1 h`, `5 minutes`, `3 days`. */
function windowWords({ minutes }: Pick<BurnWindow, 'minutes'>): string {
  if (minutes % (24 * 60) === 0) return `${minutes / (24 * 60)} days`;
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

function gateWords(window: BurnWindow): string {
  if (!window.gated) return '';
  return ` (availability and latency counted from ${minimumEvents('availability', window)} and ${minimumEvents('latency', window)} route requests, delivery from ${minimumEvents('delivery', window)} saved requests)`;
}

/** The SLI metrics, each over the window (the expression's period applies to them all). */
function sliMetrics(props: SloAlarmsProps, availability: AvailabilitySource): Record<string, IMetric> {
  const { stage } = props;
  const m = sliMetricIds;
  return {
    ...(availability === 'cloudFront'
      ? { [m.edgeErrorRate]: cloudFrontErrorRate(props.distribution!) }
      : { [m.routeErrors]: stage.metricServerError({ statistic: 'Sum' }) }),
    [m.routeRequests]: stage.metricCount({ statistic: 'Sum' }),
    // Trimmed count: the requests whose latency is at or above the objective.
    [m.slowRequests]: stage.metricLatency({ statistic: `TC(${routeLatencyObjectiveMs}:)` }),
    [m.unsent]: new Metric({
      namespace: metricsNamespace,
      metricName: unsentRequestsMetric,
      dimensionsMap: { [metricDimensions.service]: deliveryServices.unsentCheck },
      statistic: 'Maximum',
    }),
    [m.saved]: new Metric({
      namespace: metricsNamespace,
      metricName: outcomeMetrics.requestSaved,
      dimensionsMap: { [metricDimensions.service]: functionServices.saveRequest },
      statistic: 'Sum',
    }),
  };
}

/** The largest burn rate of the three objectives over `window`, as one metric-math expression. */
export function burnMetric(
  props: SloAlarmsProps,
  availability: AvailabilitySource,
  window: Pick<BurnWindow, 'burnRate' | 'gated' | 'minutes'>,
): MathExpression {
  const period = Duration.minutes(window.minutes);
  const metrics = sliMetrics(props, availability);
  const [availabilityBurn, latencyBurn, deliveryBurn, burn] = burnExpressions(window, availability);
  const usingBurns = Object.fromEntries(
    [availabilityBurn, latencyBurn, deliveryBurn].map(({ id, expression }) => [
      id,
      new MathExpression({ expression, usingMetrics: metrics, period }),
    ]),
  );
  return new MathExpression({
    expression: burn.expression,
    usingMetrics: usingBurns,
    period,
    label: `Largest burn rate over ${windowWords(window)} (budgets: availability ${errorBudget('availability')}, delivery ${errorBudget('delivery')}, latency ${errorBudget('latency')})`,
  });
}
