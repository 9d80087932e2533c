import { Duration } from 'aws-cdk-lib';
import type { IHttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { MathExpression, Metric, TreatMissingData, type Alarm, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
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
import { alarmRunbook, describeAlarm } from './runbook';
import {
  burnExpressions,
  countsCanary,
  errorBudget,
  fastBurnWindow,
  minimumEvents,
  objectiveNames,
  routeLatencyObjectiveMs,
  slowBurnWindow,
  sliMetricIds,
  type AvailabilitySource,
  type BurnWindow,
  type ObjectiveName,
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
  /**
   * The canary's failed runs (its function's Errors, Sum): counted by the availability objective's
   * 1-hour window (canaryObjective), so an outage with no reader on the site pages.
   *
   * @default - no canary (`-c canary=false`)
   */
  readonly canaryFailures?: IMetric;
}

/** How an objective is written in its alarms' names: `SloFastBurn-Delivery`. */
export function objectiveAlarmSuffix(objective: ObjectiveName): string {
  return objective.charAt(0).toUpperCase() + objective.slice(1);
}

/** One objective's alarms: its page and its ticket. */
export interface ObjectiveAlarms {
  readonly fastBurnAlarm: Alarm;
  readonly slowBurnAlarm: Alarm;
}

/**
 * Each objective's burn-rate alarms (service-level-objectives.ts), named after the objective so a
 * page's subject says which one burns: the fast burn's page over an hour and the slow burn's
 * ticket over 3 days, each one metric-math alarm reading only its objective's metrics. Six alarms
 * in all, 1.30 USD a month with the canary's metric (fastBurnWindow says what the workbook's
 * short windows would cost and why they are left out).
 */
export class SloAlarms extends AlarmFamily {
  public readonly byObjective: ReadonlyMap<ObjectiveName, ObjectiveAlarms>;
  /** The pages, one an objective. */
  public readonly fastBurnAlarms: readonly Alarm[];
  /** The tickets, one an objective. */
  public readonly slowBurnAlarms: readonly Alarm[];
  public readonly availabilitySource: AvailabilitySource;

  constructor(scope: Construct, id: string, props: SloAlarmsProps) {
    super(scope, id, props);
    this.availabilitySource = props.distribution ? 'cloudFront' : 'routes';
    this.byObjective = new Map(objectiveNames.map((objective) => [objective, this.objectiveAlarms(props, objective)]));
    this.fastBurnAlarms = [...this.byObjective.values()].map(({ fastBurnAlarm }) => fastBurnAlarm);
    this.slowBurnAlarms = [...this.byObjective.values()].map(({ slowBurnAlarm }) => slowBurnAlarm);
  }

  private objectiveAlarms(props: SloAlarmsProps, objective: ObjectiveName): ObjectiveAlarms {
    const suffix = objectiveAlarmSuffix(objective);
    const hurt = `the ${objective} objective`;
    const about = (anchor: string) => ({ hurt, anchor: `${anchor}-${objective}` });
    const fastBurnAlarm = this.addAlarm(`SloFastBurn-${suffix}`, {
      metric: burnMetric(props, this.availabilitySource, fastBurnWindow, objective),
      threshold: fastBurnWindow.burnRate,
      // No requests, no errors: a quiet window is a good one.
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        `Over the last hour, the ${objective} objective's error budget burns at ${fastBurnWindow.burnRate} times its rate or faster${gateWords(fastBurnWindow, objective)}${props.canaryFailures && objective === 'availability' ? ', or the canary failed twice' : ''} (${fastBurnWindow.budgetSpent * 100}% of the 30 days' budget in an hour): readers are failing now.`,
        alarmRunbook.SloFastBurn,
        about('slofastburn'),
      ),
    });
    const slowBurnAlarm = this.addAlarm(`SloSlowBurn-${suffix}`, {
      metric: burnMetric(props, this.availabilitySource, slowBurnWindow, objective),
      threshold: slowBurnWindow.burnRate,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        `Over the last 3 days, the ${objective} objective's error budget burns at its own rate or faster${gateWords(slowBurnWindow, objective)}: at this pace it is spent within the 30 days.`,
        alarmRunbook.SloSlowBurn,
        about('sloslowburn'),
      ),
    });
    return { fastBurnAlarm, slowBurnAlarm };
  }
}

/** `1 h`, `5 minutes`, `3 days`. */
function windowWords({ minutes }: Pick<BurnWindow, 'minutes'>): string {
  if (minutes % (24 * 60) === 0) return `${minutes / (24 * 60)} days`;
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

function gateWords(window: BurnWindow, objective: ObjectiveName): string {
  if (!window.gated) return '';
  const events = objective === 'delivery' ? 'saved requests' : 'route requests';
  return ` (counted from ${minimumEvents(objective, window)} ${events})`;
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
    // Summed: each request unsent 15 minutes after its save is counted once, by one run (lambdas/unsent-check).
    [m.unsent]: new Metric({
      namespace: metricsNamespace,
      metricName: unsentRequestsMetric,
      dimensionsMap: { [metricDimensions.service]: deliveryServices.unsentCheck },
      statistic: 'Sum',
    }),
    [m.saved]: new Metric({
      namespace: metricsNamespace,
      metricName: outcomeMetrics.requestSaved,
      dimensionsMap: { [metricDimensions.service]: functionServices.saveRequest },
      statistic: 'Sum',
    }),
    ...(props.canaryFailures && { [m.canaryFailures]: props.canaryFailures }),
  };
}

/** One objective's burn rate over `window`, as one metric-math expression reading only its own metrics. */
export function burnMetric(
  props: SloAlarmsProps,
  availability: AvailabilitySource,
  window: Pick<BurnWindow, 'burnRate' | 'gated' | 'minutes' | 'label'>,
  objective: ObjectiveName,
): MathExpression {
  const period = Duration.minutes(window.minutes);
  const metrics = sliMetrics(props, availability);
  const canary = props.canaryFailures !== undefined && countsCanary(window);
  const burn = burnExpressions(window, availability, { canary }).find(({ id }) => id === `${objective}Burn`);
  if (!burn) throw new Error(`No burn expression for the ${objective} objective`);
  // An alarm pays for every metric it reads: only those its expression names.
  const usingMetrics = Object.fromEntries(
    Object.entries(metrics).filter(([id]) => new RegExp(`\\b${id}\\b`).test(burn.expression)),
  );
  return new MathExpression({
    expression: burn.expression,
    usingMetrics,
    period,
    label: `${objectiveAlarmSuffix(objective)} burn rate over ${windowWords(window)} (budget ${errorBudget(objective)})`,
  });
}
