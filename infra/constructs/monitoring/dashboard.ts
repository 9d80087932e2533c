import { Aws, type CfnResource, Duration, Stack } from 'aws-cdk-lib';
import type { IHttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  GraphWidgetView,
  Metric,
  TextWidget,
  type IAlarm,
  type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { serviceMetrics } from '../../../core/api/catalogue/service-metrics';
import {
  deliveryServices,
  metricDimensions,
  metricsNamespace,
  unsentRequestsMetric,
} from '../../../core/observability/product-metrics';
import {
  accountConcurrency,
  cloudFrontErrorRate,
  cloudFrontMetricsRegion,
  fiveMinutes,
  productMetric,
  sesMetric,
  uniqueServices,
  type MonitoredFunction,
  type MonitoredTable,
} from './metrics';
import { configurationSetEvent, sendingPauseThresholds, sesReviewRates } from './cause-alarms';
import { routeLatencyObjectiveMs } from './service-level-objectives';

/** One objective's row of the dashboard: its alarms' states. */
export interface ObjectiveAlarmStates {
  readonly objective: string;
  /** The page first, then the ticket. */
  readonly alarms: readonly IAlarm[];
}

export interface MonitoringDashboardProps {
  /** The causes' alarms its status widget lists, in order (none that exists only under a condition). */
  readonly alarms: readonly IAlarm[];
  /**
   * The objectives row: each objective's alarms, one status widget an objective (the runbook's
   * first step after a page points to it).
   *
   * @default - no objectives row
   */
  readonly objectives?: readonly ObjectiveAlarmStates[];
  readonly stage: IHttpStage;
  readonly functions: readonly MonitoredFunction[];
  readonly tables: readonly MonitoredTable[];
  readonly distribution: IDistribution;
  /**
   * The SES configuration set whose CloudWatch event destination counts deliveries, bounces,
   * complaints and rejects, and the dimension it publishes them by.
   *
   * @default - the SES account's own sending metrics (no dimension)
   */
  readonly sesConfigurationSet?: { readonly name: string; readonly dimensionName: string };
  /** @default `<stack name>-<region>` */
  readonly dashboardName?: string;
}

const hour = Duration.hours(1);

/**
 * One dashboard, read top to bottom: alarms, the funnel, refusals, failures by kind, latency per
 * route, API replies, SES, throttles, Lambda, CloudFront.
 */
export class MonitoringDashboard extends Construct {
  public readonly dashboard: Dashboard;
  /** The dashboard in the CloudWatch console. */
  public readonly url: string;

  constructor(scope: Construct, id: string, props: MonitoringDashboardProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // `Default`: the dashboard keeps the logical id it had before this construct wrapped it.
    this.dashboard = new Dashboard(this, 'Default', {
      dashboardName: props.dashboardName ?? `${stack.stackName}-${Aws.REGION}`,
      defaultInterval: Duration.days(7),
    });
    // CloudFormation takes Tags on a dashboard (aws-cdk-lib writes the app's there since 2.257),
    // but cfn-lint 1.51's schema predates them and calls them an error (E3002): on this one
    // resource, that check alone is off.
    (this.dashboard.node.defaultChild as CfnResource).addMetadata('cfn-lint', {
      config: { ignore_checks: ['E3002'] },
    });
    this.dashboard.addWidgets(...overviewRow(props.alarms));
    if (props.objectives?.length) this.dashboard.addWidgets(...objectivesRow(props.objectives));
    this.dashboard.addWidgets(...productRow(props.functions));
    this.dashboard.addWidgets(...apiRow(props.stage, props.functions));
    this.dashboard.addWidgets(...sesRow(props.sesConfigurationSet));
    this.dashboard.addWidgets(...capacityRow(props));
    this.url = `https://console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${this.dashboard.dashboardName}`;
  }
}

function overviewRow(alarms: readonly IAlarm[]): IWidget[] {
  return [
    new TextWidget({
      width: 24,
      height: 3,
      markdown: [
        '## First 100 Days site',
        "Read top to bottom: alarms on the causes the objectives cannot see; the objectives row (each objective's page and ticket: the one in alarm is the one that burns); the funnel (requests saved → cheat sheets sent, per hour: the two lines should move together, and unsent should stay at 0); refusals (the limits at work: a spike is a spray); failures by kind (should be empty); latency per route against its objective; API replies; SES reputation and delivery events; Lambda and CloudFront. docs/operate.md says what to do for each alarm, and its Logs Insights queries find the cause.",
      ].join('\n\n'),
    }),
    new AlarmStatusWidget({ title: 'Alarms on the causes', width: 24, height: 3, alarms: [...alarms] }),
  ];
}

/**
 * The objectives row: one alarm-status widget an objective (its page and its ticket). States, not graphs: a status widget graphs no metric, so the dashboard stays within the
 * free 50 metrics, and each alarm's own graph is a click away.
 */
function objectivesRow(objectives: readonly ObjectiveAlarmStates[]): IWidget[] {
  const width = Math.floor(24 / objectives.length);
  return objectives.map(
    ({ objective, alarms }) =>
      new AlarmStatusWidget({ title: `Objective: ${objective}`, width, height: 4, alarms: [...alarms] }),
  );
}

function productRow(functions: readonly MonitoredFunction[]): IWidget[] {
  const services = uniqueServices(functions);
  return [
    new GraphWidget({
      title: 'Funnel per hour: requests saved → cheat sheets sent',
      width: 8,
      view: GraphWidgetView.BAR,
      left: services.map((service) => {
        const outcome = serviceMetrics(service).outcome;
        return productMetric(outcome, service, hour, undefined, `${outcome} (${service})`);
      }),
      // The delivery objective's bad events: requests still unsent 15 minutes after they were saved, each counted once.
      right: [
        new Metric({
          namespace: metricsNamespace,
          metricName: unsentRequestsMetric,
          dimensionsMap: { [metricDimensions.service]: deliveryServices.unsentCheck },
          statistic: 'Sum',
          period: hour,
          label: 'Newly unsent 15 minutes after their save',
        }),
      ],
    }),
    new GraphWidget({
      title: 'Refusals by reason, per hour',
      width: 8,
      left: services.flatMap((service) =>
        serviceMetrics(service).refusals.map((refusal) =>
          productMetric(refusal, service, hour, undefined, `${refusal} (${service})`),
        ),
      ),
    }),
    new GraphWidget({
      title: 'Failures by kind, per 5 minutes',
      width: 8,
      left: services.flatMap((service) =>
        // Every failure kind the service reports (the catalogue's): no alarm per kind, the objectives page.
        serviceMetrics(service).failureMetricKinds.map((kind) =>
          productMetric(serviceMetrics(service).failureMetric, service, fiveMinutes, kind, `${kind} (${service})`),
        ),
      ),
    }),
  ];
}

function apiRow(stage: IHttpStage, functions: readonly MonitoredFunction[]): IWidget[] {
  return [
    new GraphWidget({
      // Each route's function's duration: Lambda's own metric, free, where route-level API metrics
      // would be billed (Api's detailedMetrics). The right axis is the stage's, every route.
      title: 'Latency per route (ms)',
      width: 12,
      left: functions.map((fn) =>
        fn.function.metricDuration({ statistic: 'p99', period: fiveMinutes, label: `p99 ${fn.method} ${fn.route}` }),
      ),
      leftAnnotations: [{ value: routeLatencyObjectiveMs, label: 'Latency objective' }],
      // The latency objective's bad events: requests at or over it, every route.
      right: [
        stage.metricLatency({
          period: fiveMinutes,
          statistic: `TC(${routeLatencyObjectiveMs}:)`,
          label: `Requests over ${routeLatencyObjectiveMs} ms`,
        }),
      ],
    }),
    new GraphWidget({
      title: 'API replies per 5 minutes',
      width: 12,
      left: [
        stage.metricCount({ period: fiveMinutes, statistic: 'Sum', label: 'All' }),
        stage.metricClientError({ period: fiveMinutes, statistic: 'Sum', label: '4xx' }),
        stage.metricServerError({ period: fiveMinutes, statistic: 'Sum', label: '5xx' }),
      ],
    }),
  ];
}

function sesRow(configurationSet: MonitoringDashboardProps['sesConfigurationSet']): IWidget[] {
  return [
    new GraphWidget({
      title: `SES account reputation (review at ${sesReviewRates.bounceRate * 100}% bounces, ${sesReviewRates.complaintRate * 100}% complaints; the product pauses at ${sendingPauseThresholds.bounceRate * 100}%, ${sendingPauseThresholds.complaintRate * 100}% over 24 hours)`,
      width: 12,
      left: [sesMetric('Reputation.BounceRate', 'Maximum', hour, 'Bounce rate')],
      right: [sesMetric('Reputation.ComplaintRate', 'Maximum', hour, 'Complaint rate')],
      leftAnnotations: [
        { value: sesReviewRates.bounceRate, label: 'Bounce review' },
        { value: sendingPauseThresholds.bounceRate, label: 'Sending paused' },
      ],
      rightAnnotations: [
        { value: sesReviewRates.complaintRate, label: 'Complaint review' },
        { value: sendingPauseThresholds.complaintRate, label: 'Sending paused' },
      ],
    }),
    new GraphWidget({
      title: configurationSet
        ? `SES delivery events (configuration set), per hour`
        : 'SES delivery events (whole account), per hour',
      width: 12,
      left: ['Delivery', 'Bounce', 'Complaint', 'Reject'].map((event) =>
        configurationSet
          ? configurationSetEvent(event, configurationSet, hour).with({ label: event })
          : new Metric({ namespace: 'AWS/SES', metricName: event, statistic: 'Sum', period: hour, label: event }),
      ),
    }),
  ];
}

function capacityRow({ functions, distribution }: MonitoringDashboardProps): IWidget[] {
  return [
    new GraphWidget({
      title: 'Lambda throttles per 5 minutes (the tables: the StorageUnavailable query)',
      width: 8,
      left: functions.map(({ function: fn, name }) =>
        fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum', label: `Lambda ${name}` }),
      ),
    }),
    new GraphWidget({
      title: 'Lambda: concurrency and errors',
      width: 8,
      left: [accountConcurrency('Account concurrency (max)')],
      right: functions.map(({ function: fn, name }) =>
        fn.metricErrors({ period: fiveMinutes, statistic: 'Sum', label: `Errors ${name}` }),
      ),
    }),
    new GraphWidget({
      title: 'CloudFront: 5xx error rate (%) and requests (us-east-1)',
      width: 8,
      left: [cloudFrontErrorRate(distribution).with({ region: cloudFrontMetricsRegion })],
      right: [
        new Metric({
          namespace: 'AWS/CloudFront',
          metricName: 'Requests',
          dimensionsMap: { DistributionId: distribution.distributionId, Region: 'Global' },
          statistic: 'Sum',
          period: fiveMinutes,
          region: cloudFrontMetricsRegion,
          label: 'Requests',
        }),
      ],
    }),
  ];
}
