import { Aws, type CfnResource, Duration, Stack } from 'aws-cdk-lib';
import { Dashboard, GraphWidget, MathExpression, TextWidget, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import {
  functionServices,
  outcomeMetrics,
  visitMetrics,
  visitService,
} from '../../../core/observability/product-metrics';
import { configurationSetEvent, type ConfigurationSetEvents } from './cause-alarms';
import { fiveMinutes, productMetric, type MonitoredFunction } from './metrics';

export interface FunnelDashboardProps {
  /** The beacon's function (the catalogue's `beacon` route): its errors and throttles. */
  readonly beacons: readonly MonitoredFunction[];
  /** The product's SES configuration set: its deliveries, bounces and complaints. */
  readonly sesConfigurationSet: ConfigurationSetEvents;
  /** @default `<stack name>-<region>-funnel` */
  readonly dashboardName?: string;
}

const day = Duration.days(1);

/**
 * The author's dashboard: the funnel per day (visits to `/`, unique visitors, requests saved,
 * cheat sheets sent, the conversion; then delivered, bounced, complained) and the beacon's own
 * health. A dashboard of its own, beside the operator's: that one holds the free 50 metrics
 * already, and a dashboard is free within an account's first three of up to 50 metrics each
 * (https://aws.amazon.com/cloudwatch/pricing/), so one stage per account costs nothing.
 */
export class FunnelDashboard extends Construct {
  public readonly dashboard: Dashboard;
  /** The dashboard in the CloudWatch console. */
  public readonly url: string;

  constructor(scope: Construct, id: string, props: FunnelDashboardProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.dashboard = new Dashboard(this, 'Default', {
      dashboardName: props.dashboardName ?? `${stack.stackName}-${Aws.REGION}-funnel`,
      defaultInterval: Duration.days(28),
    });
    // As on the operator's dashboard: cfn-lint 1.51's schema does not know a dashboard's Tags (E3002).
    (this.dashboard.node.defaultChild as CfnResource).addMetadata('cfn-lint', {
      config: { ignore_checks: ['E3002'] },
    });
    this.dashboard.addWidgets(...funnelRow(props));
    this.dashboard.addWidgets(...beaconRow(props.beacons));
    this.url = `https://console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${this.dashboard.dashboardName}`;
  }
}

function funnelRow({ sesConfigurationSet }: FunnelDashboardProps): IWidget[] {
  const visits = productMetric(visitMetrics.visit, visitService, day, undefined, 'Visits to /');
  const unique = productMetric(visitMetrics.uniqueVisitor, visitService, day, undefined, 'Unique visitors');
  const saved = productMetric(outcomeMetrics.requestSaved, functionServices.saveRequest, day, undefined, 'Requests');
  const sent = productMetric(outcomeMetrics.cheatSheetSent, functionServices.sendCheatSheet, day, undefined, 'Sent');
  return [
    new TextWidget({
      width: 24,
      height: 3,
      markdown: [
        '## The funnel, per day (UTC)',
        'Visits to / and unique visitors (no cookie: a daily-salted hash, known bots left out), requests saved, cheat sheets sent and the conversion (requests per unique visitor); then what SES did with them. `npm run leads -- funnel` prints the same per day, with the hand-offs to your mail tool (docs/author.md).',
      ].join('\n\n'),
    }),
    new GraphWidget({
      title: 'Visits, unique visitors, requests and sends per day; conversion (%)',
      width: 12,
      left: [visits, unique, saved, sent],
      right: [
        new MathExpression({
          expression: '100 * saved / unique',
          usingMetrics: { saved, unique },
          period: day,
          label: 'Conversion (%)',
        }),
      ],
    }),
    new GraphWidget({
      title: 'What SES did with them, per day',
      width: 12,
      left: ['Delivery', 'Bounce', 'Complaint'].map((event) =>
        configurationSetEvent(event, sesConfigurationSet, day).with({ label: event }),
      ),
    }),
  ];
}

function beaconRow(beacons: readonly MonitoredFunction[]): IWidget[] {
  return [
    new GraphWidget({
      title: 'The visit beacon: known bots left out, errors and throttles per 5 minutes',
      width: 24,
      left: [productMetric(visitMetrics.botVisit, visitService, fiveMinutes, undefined, 'Known bots (not counted)')],
      right: beacons.flatMap(({ function: fn, name }) => [
        fn.metricErrors({ period: fiveMinutes, statistic: 'Sum', label: `Errors ${name}` }),
        fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum', label: `Throttles ${name}` }),
      ]),
    }),
  ];
}
