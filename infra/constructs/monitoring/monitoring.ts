import { Stack } from 'aws-cdk-lib';
import type { IHttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { Dashboard, IAlarm, IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AlarmActions } from './alarm-family';
import { AlarmTopic } from './alarm-topic';
import { CauseAlarms, type ConfigurationSetEvents } from './cause-alarms';
import { DisabledNotices } from './disabled-notices';
import { MonitoringDashboard } from './dashboard';
import { FunnelDashboard } from './funnel-dashboard';
import { cloudFrontMetricsRegion, type MonitoredFunction, type MonitoredTable } from './metrics';
import { SloAlarms } from './slo-alarms';

export interface MonitoringProps {
  /** The API's stage: the routes' requests, 5xx and latency. */
  readonly stage: IHttpStage;
  /** The functions behind the API, each with its route (Api.functions): the dashboard. */
  readonly functions: readonly MonitoredFunction[];
  /** The tables (kept for the dashboard's callers; the tables' faults show in the objectives). */
  readonly tables: readonly MonitoredTable[];
  readonly distribution: IDistribution;
  /** The product's daily send budget: the warning reads the same value the send function enforces. */
  readonly dailySendBudget: number;
  /** @default - no e-mail subscription to the pages topic */
  readonly alarmEmail?: string;
  /** @default - no HTTPS subscription to the pages topic */
  readonly pageEndpoint?: string;
  /**
   * Where tickets are e-mailed.
   *
   * @default - alarmEmail: a ticket nobody reads is no ticket (a failing unsent check, say, lands only there)
   */
  readonly ticketEmail?: string;
  /**
   * The key both topics are encrypted with (the stack's: the leads' key).
   *
   * @default - a key of the pages topic's own, which the tickets topic shares (AlarmTopicProps.encryptionKey)
   */
  readonly encryptionKey?: IKey;
  /** The product's SES configuration set: its bounce and complaint events. */
  readonly sesConfigurationSet: ConfigurationSetEvents;
  /** @default - none, and no DeadLetters alarms */
  readonly deadLetterQueues?: readonly IQueue[];
  /**
   * The send queue: the age of its oldest message is the send backlog's (SendBacklog).
   *
   * @default - none, and no SendBacklog alarm
   */
  readonly sendQueue?: IQueue;
  /** @default `docs/operate.md` (AlarmFamilyProps.runbookBaseUrl) */
  readonly runbookBaseUrl?: string;
  /** @default 0.8 (CauseAlarmsProps.budgetWarningRatio) */
  readonly budgetWarningRatio?: number;
  /**
   * The keys the product's data is under: disabling or deleting one pages (DisabledNotices).
   *
   * @default - none watched; SES disabling sending still pages
   */
  readonly dataKeys?: readonly IKey[];
  /** The canary's failed runs, which the objectives count (SloAlarmsProps.canaryFailures). @default - no canary */
  readonly canaryFailures?: IMetric;
}

/**
 * What pages and what opens a ticket: the two topics, the objectives' burn-rate alarms, the causes
 * no objective sees, and the dashboard. Wiring only; objectives, thresholds and their reasons are
 * in service-level-objectives.ts, cause-alarms.ts and runbook.ts.
 */
export class Monitoring extends Construct {
  /** Pages: on ALARM and on OK, to alarmEmail and pageEndpoint. */
  public readonly pages: AlarmTopic;
  /** Tickets: on ALARM only, to ticketEmail, else alarmEmail. */
  public readonly tickets: AlarmTopic;
  public readonly sloAlarms: SloAlarms;
  public readonly causeAlarms: CauseAlarms;
  /** The key or the configuration set disabled: EventBridge rules to the pages topic, no alarm. */
  public readonly disabledNotices: DisabledNotices;
  public readonly monitoringDashboard: MonitoringDashboard;
  /** The author's: the funnel per day, and the visit beacon's health. */
  public readonly funnelDashboard: FunnelDashboard;
  /** Where each severity notifies, for alarms made elsewhere. */
  public readonly alarmActions: AlarmActions;
  /** The pages topic (the pause function subscribes to it). */
  public readonly pagesTopic: Topic;
  public readonly ticketsTopic: Topic;
  /** Every alarm of the stack. */
  public readonly alarms: readonly IAlarm[];
  public readonly dashboard: Dashboard;
  /** The dashboard in the CloudWatch console. */
  public readonly dashboardUrl: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    // `AlarmTopic`: the pages topic keeps the logical id of the one topic before it, and its
    // confirmed e-mail subscription.
    this.pages = new AlarmTopic(this, 'AlarmTopic', {
      displayName: 'First 100 Days site: page',
      alarmEmail: props.alarmEmail,
      httpsEndpoint: props.pageEndpoint,
      encryptionKey: props.encryptionKey,
    });
    this.tickets = new AlarmTopic(this, 'TicketTopic', {
      displayName: 'First 100 Days site: ticket',
      alarmEmail: props.ticketEmail ?? props.alarmEmail,
      encryptionKey: props.encryptionKey ?? this.pages.encryptionKey,
    });
    this.alarmActions = { page: this.pages.alarmAction, ticket: this.tickets.alarmAction };
    const family = { alarmActions: this.alarmActions, runbookBaseUrl: props.runbookBaseUrl };

    // CloudFront's metrics are in us-east-1 only: elsewhere (or where the region is unknown at
    // synth) the availability objective reads the routes' own 5xx, and an edge stack in us-east-1
    // watches CloudFront's (infra/edge-monitoring-stack.ts).
    const cloudFrontHere = Stack.of(this).region === cloudFrontMetricsRegion;
    this.sloAlarms = new SloAlarms(this, 'SloAlarms', {
      ...family,
      stage: props.stage,
      ...(cloudFrontHere && { distribution: props.distribution }),
      ...(props.canaryFailures && { canaryFailures: props.canaryFailures }),
    });
    this.causeAlarms = new CauseAlarms(this, 'CauseAlarms', {
      ...family,
      configurationSet: props.sesConfigurationSet,
      dailySendBudget: props.dailySendBudget,
      budgetWarningRatio: props.budgetWarningRatio,
      deadLetterQueues: props.deadLetterQueues,
      sendQueue: props.sendQueue,
    });
    this.disabledNotices = new DisabledNotices(this, 'DisabledNotices', {
      pages: this.pages,
      keys: props.dataKeys ?? [],
      runbookBaseUrl: props.runbookBaseUrl,
    });
    this.alarms = [...this.sloAlarms.alarms, ...this.causeAlarms.alarms];
    this.monitoringDashboard = new MonitoringDashboard(this, 'Dashboard', {
      alarms: this.causeAlarms.alarms,
      objectives: [...this.sloAlarms.byObjective].map(([objective, alarms]) => ({
        objective,
        alarms: [alarms.fastBurnAlarm, alarms.slowBurnAlarm],
      })),
      stage: props.stage,
      // The beacon is the author's funnel: its graphs are on that dashboard (the operator's holds its free 50 metrics).
      functions: props.functions.filter((fn) => !fn.beacon),
      tables: props.tables,
      distribution: props.distribution,
      sesConfigurationSet: props.sesConfigurationSet,
    });
    this.funnelDashboard = new FunnelDashboard(this, 'FunnelDashboard', {
      beacons: props.functions.filter((fn) => fn.beacon),
      sesConfigurationSet: props.sesConfigurationSet,
    });

    this.pagesTopic = this.pages.topic;
    this.ticketsTopic = this.tickets.topic;
    this.dashboard = this.monitoringDashboard.dashboard;
    this.dashboardUrl = this.monitoringDashboard.url;
  }
}
