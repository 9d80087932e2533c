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
  countsCanary,
  errorBudget,
  fastBurnPairs,
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

/** One objective's alarms: its four windows, the composite page, the slow-burn ticket. */
export interface ObjectiveAlarms {
  /** By label: `1h`, `5m`, `6h`, `30m`. */
  readonly windowAlarms: ReadonlyMap<string, Alarm>;
  readonly fastBurnAlarm: CompositeAlarm;
  readonly slowBurnAlarm: Alarm;
}

/**
 * Each objective's burn-rate alarms (service-level-objectives.ts), named after the objective so a
 * page's subject says which one burns: a window alarm for each of the four windows of the fast
 * burn, one composite alarm that pages when both windows of a pair breach, and the slow burn's
 * ticket. Six alarms an objective, eighteen in all; one window alarm for all three objectives would
 * cost 1.50 USD a month less (one composite instead of three) and page without saying which burns.
 */
export class SloAlarms extends AlarmFamily {
  public readonly byObjective: ReadonlyMap<ObjectiveName, ObjectiveAlarms>;
  /** The pages, one an objective. */
  public readonly fastBurnAlarms: readonly CompositeAlarm[];
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
    const fastBurnId = `SloFastBurn-${suffix}`;
    const windowAlarms = new Map<string, Alarm>();
    const windowAlarm = (window: BurnWindow) => {
      const alarm = this.addAlarm(`SloWindow${window.label}-${suffix}`, {
        metric: burnMetric(props, this.availabilitySource, window, objective),
        threshold: window.burnRate,
        // No requests, no errors: a quiet window is a good one.
        treatMissingData: TreatMissingData.NOT_BREACHING,
        notifies: false,
        description: describeAlarm(
          `Over the last ${windowWords(window)}, the ${objective} objective's error budget burns at ${window.burnRate} times its rate or faster${gateWords(window, objective)}. Pages only through ${fastBurnId}, with the other window of its pair.`,
          alarmRunbook.SloBurnWindow,
          about('slofastburn'),
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

    const fastBurnAlarm = new CompositeAlarm(this, fastBurnId, {
      compositeAlarmName: this.alarmNameOf(fastBurnId),
      alarmRule: AlarmRule.anyOf(...pairs),
      alarmDescription: runbookDescription(
        describeAlarm(
          fastBurnPairs
            .map(
              ({ long, short, budgetSpent }) =>
                `${long.burnRate}x over ${windowWords(long)} and ${windowWords(short)} (${budgetSpent * 100}% of the budget in ${windowWords(long)})`,
            )
            .join(', or ') + `: readers are failing now (the ${objective} objective).`,
          alarmRunbook.SloFastBurn,
          about('slofastburn'),
        ),
        this.runbookUrl,
      ),
    });
    this.notify(fastBurnAlarm, 'page');

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
    return { windowAlarms, fastBurnAlarm, slowBurnAlarm };
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
