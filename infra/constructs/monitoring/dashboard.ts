import { Aws, Duration, Stack } from 'aws-cdk-lib';
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
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { serviceMetrics } from '../../../core/api/catalogue/service-metrics';
import { metricDimensions, metricsNamespace } from '../../../core/observability/product-metrics';
import {
  accountConcurrency,
  cloudFrontErrorRate,
  cloudFrontMetricsRegion,
  fiveMinutes,
  productMetric,
  routeLatency,
  sesMetric,
  tableId,
  tableOperationsSum,
  uniqueServices,
  type MonitoredFunction,
  type MonitoredTable,
} from './metrics';
import { configurationSetReputation, sendingPauseThresholds } from './configuration-set-alarms';
import { pagingFailureKinds } from './runbook';
import { sesReputationThresholds } from './ses-alarms';

export interface MonitoringDashboardProps {
  /** The alarms its status widget lists, in order (none that exists only under a condition). */
  readonly alarms: readonly IAlarm[];
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
    this.dashboard.addWidgets(...overviewRow(props.alarms));
    this.dashboard.addWidgets(...productRow(props.functions));
    this.dashboard.addWidgets(...apiRow(props.stage, props.functions));
    this.dashboard.addWidgets(...sesRow(props.sesConfigurationSet));
    this.dashboard.addWidgets(...capacityRow(props));
    this.url = `https://console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${this.dashboard.dashboardName}`;
  }

  /**
   * A row for the functions no route invokes (built after the monitoring, since the pause
   * function listens to its alarm topic): each one's errors and throttles.
   */
  public addEventFunctions(functions: readonly { readonly function: IFunction; readonly name: string }[]): void {
    if (functions.length === 0) return;
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Functions no route invokes: errors and throttles per 5 minutes',
        width: 24,
        left: functions.map(({ function: fn, name }) =>
          fn.metricErrors({ period: fiveMinutes, statistic: 'Sum', label: `Errors ${name}` }),
        ),
        right: functions.map(({ function: fn, name }) =>
          fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum', label: `Throttles ${name}` }),
        ),
      }),
    );
  }
}

function overviewRow(alarms: readonly IAlarm[]): IWidget[] {
  return [
    new TextWidget({
      width: 24,
      height: 3,
      markdown: [
        '## First 100 Days site',
        'Read top to bottom: alarms; the funnel (requests saved → cheat sheets sent, per hour: the two lines should move together); refusals (the limits at work: a spike is a spray); failures by kind (should be empty); latency per route; SES reputation and delivery events; throttles. docs/operate.md says what to do for each alarm.',
      ].join('\n\n'),
    }),
    new AlarmStatusWidget({ title: 'Alarms', width: 24, height: 4, alarms: [...alarms] }),
  ];
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
        // Every failure kind of the catalogue that pages, as the alarms: the graph shows what fires.
        pagingFailureKinds()
          .filter((kind) => serviceMetrics(service).failureMetricKinds.includes(kind))
          .map((kind) =>
            productMetric(serviceMetrics(service).failureMetric, service, fiveMinutes, kind, `${kind} (${service})`),
          ),
      ),
    }),
  ];
}

function apiRow(stage: IHttpStage, functions: readonly MonitoredFunction[]): IWidget[] {
  return [
    new GraphWidget({
      title: 'Latency per route (ms)',
      width: 12,
      left: functions.flatMap((fn) => [
        routeLatency(stage, fn, 'p50', `p50 ${fn.method} ${fn.route}`),
        routeLatency(stage, fn, 'p99', `p99 ${fn.method} ${fn.route}`),
      ]),
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
  const setRates = configurationSet
    ? {
        left: [
          configurationSetReputation('Reputation.BounceRate', configurationSet.name, 'Bounce rate (configuration set)'),
        ],
        right: [
          configurationSetReputation(
            'Reputation.ComplaintRate',
            configurationSet.name,
            'Complaint rate (configuration set)',
          ),
        ],
      }
    : { left: [], right: [] };
  return [
    new GraphWidget({
      title: configurationSet
        ? 'SES reputation (review at 5% bounces, 0.1% complaints; the set pauses at 4%, 0.08%)'
        : 'SES reputation (alarms at 5% bounces, 0.1% complaints)',
      width: 12,
      left: [sesMetric('Reputation.BounceRate', 'Maximum', hour, 'Bounce rate'), ...setRates.left],
      right: [sesMetric('Reputation.ComplaintRate', 'Maximum', hour, 'Complaint rate'), ...setRates.right],
      leftAnnotations: [
        { value: sesReputationThresholds.bounceRate, label: 'Bounce review' },
        ...(configurationSet ? [{ value: sendingPauseThresholds.bounceRate, label: 'Sending paused' }] : []),
      ],
      rightAnnotations: [
        { value: sesReputationThresholds.complaintRate, label: 'Complaint review' },
        ...(configurationSet ? [{ value: sendingPauseThresholds.complaintRate, label: 'Sending paused' }] : []),
      ],
    }),
    new GraphWidget({
      title: configurationSet
        ? `SES delivery events (configuration set), per hour`
        : 'SES delivery events (whole account), per hour',
      width: 12,
      left: ['Delivery', 'Bounce', 'Complaint', 'Reject'].map(
        (event) =>
          new Metric({
            namespace: 'AWS/SES',
            metricName: event,
            statistic: 'Sum',
            period: hour,
            label: event,
            ...(configurationSet && { dimensionsMap: { [configurationSet.dimensionName]: configurationSet.name } }),
          }),
      ),
    }),
  ];
}

function capacityRow({ functions, tables, distribution }: MonitoringDashboardProps): IWidget[] {
  return [
    new GraphWidget({
      title: 'Throttles per 5 minutes',
      width: 8,
      left: [
        ...functions.map(({ function: fn, name }) =>
          fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum', label: `Lambda ${name}` }),
        ),
        ...tables.map(({ table, operations }) =>
          tableOperationsSum(table, 'ThrottledRequests', operations, `DynamoDB ${tableId(table)}`),
        ),
      ],
    }),
    new GraphWidget({
      title: 'Lambda: concurrency, errors, cold starts',
      width: 8,
      left: [accountConcurrency('Account concurrency (max)')],
      right: functions.flatMap(({ function: fn, name, services: [service] }) => [
        fn.metricErrors({ period: fiveMinutes, statistic: 'Sum', label: `Errors ${name}` }),
        // Powertools adds the function's name to the cold-start metric's dimensions. A function
        // that counts under two services counts its cold start under each: one is enough; one
        // with no metrics service (none in its entry) reports no cold start.
        ...(service === undefined
          ? []
          : [
              new Metric({
                namespace: metricsNamespace,
                metricName: 'ColdStart',
                dimensionsMap: { [metricDimensions.service]: service, function_name: fn.functionName },
                statistic: 'Sum',
                period: fiveMinutes,
                label: `Cold starts ${name}`,
              }),
            ]),
      ]),
    }),
    new GraphWidget({
      title: 'CloudFront 5xx error rate (%, us-east-1)',
      width: 8,
      left: [cloudFrontErrorRate(distribution).with({ region: cloudFrontMetricsRegion })],
    }),
  ];
}
