import type { IHttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { Alarm, Dashboard } from 'aws-cdk-lib/aws-cloudwatch';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { AccountConcurrencyAlarm } from './account-concurrency-alarm';
import { AlarmTopic } from './alarm-topic';
import { ApiAlarms } from './api-alarms';
import { CloudFrontAlarm } from './cloudfront-alarm';
import { ConfigurationSetAlarms } from './configuration-set-alarms';
import { MonitoringDashboard } from './dashboard';
import { FunctionAlarms } from './function-alarms';
import { uniqueServices, type MonitoredFunction, type MonitoredTable } from './metrics';
import { ProductAlarms } from './product-alarms';
import { SesAlarms } from './ses-alarms';
import { TableAlarms } from './table-alarms';

export interface MonitoringProps {
  /** The API's stage: its 5xx and each route's latency. */
  readonly stage: IHttpStage;
  /** The functions behind the API, each with its route (Api.functions). */
  readonly functions: readonly MonitoredFunction[];
  /** Both tables, with the operations the functions call on each. */
  readonly tables: readonly MonitoredTable[];
  readonly distribution: IDistribution;
  /** The product's daily send budget: the budget alarms read the same value the send function enforces. */
  readonly dailySendBudget: number;
  /** @default - no subscription (AlarmTopicProps.alarmEmail) */
  readonly alarmEmail?: string;
  /** @default - a key for the topic alone (AlarmTopicProps.encryptionKey) */
  readonly encryptionKey?: IKey;
  /**
   * The product's SES configuration set: its delivery events on the dashboard, and its own
   * bounce and complaint rates alarmed on (ConfigurationSetAlarms), which pause its sending.
   *
   * @default - the SES account's own sending metrics, and no configuration-set alarms
   */
  readonly sesConfigurationSet?: { readonly name: string; readonly dimensionName: string };
  /**
   * The account's Lambda concurrency quota: the account-concurrency alarm fires at 80% of it.
   *
   * @default 1000 (threshold 800)
   */
  readonly accountConcurrencyLimit?: number;
  /** @default `docs/operate.md` (AlarmFamilyProps.runbookBaseUrl) */
  readonly runbookBaseUrl?: string;
  /** @default 0.8 (ProductAlarmsProps.budgetWarningRatio) */
  readonly budgetWarningRatio?: number;
}

/**
 * Where trouble shows first: the alarm topic, each family of alarms, and the dashboard. Wiring
 * only; thresholds and their reasons are in each family and in runbook.ts.
 */
export class Monitoring extends Construct {
  public readonly topic: AlarmTopic;
  public readonly apiAlarms: ApiAlarms;
  public readonly functionAlarms: FunctionAlarms;
  public readonly accountConcurrencyAlarm: AccountConcurrencyAlarm;
  public readonly productAlarms: ProductAlarms;
  public readonly sesAlarms: SesAlarms;
  /** With sesConfigurationSet: the alarms that pause sending (SendingPause subscribes to them). */
  public readonly configurationSetAlarms?: ConfigurationSetAlarms;
  public readonly tableAlarms: TableAlarms;
  public readonly cloudFrontAlarm: CloudFrontAlarm;
  public readonly monitoringDashboard: MonitoringDashboard;

  /** The key encrypting the topic: the one given, or the topic's own. */
  public readonly encryptionKey: IKey;
  /** Every alarm's ALARM and OK actions publish here. */
  public readonly alarmTopic: Topic;
  /** Every alarm of the stack, the CloudFront one included when it is created. */
  public readonly alarms: readonly Alarm[];
  public readonly dashboard: Dashboard;
  /** The dashboard in the CloudWatch console. */
  public readonly dashboardUrl: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = new AlarmTopic(this, 'AlarmTopic', {
      alarmEmail: props.alarmEmail,
      encryptionKey: props.encryptionKey,
    });
    // Every family notifies the topic and links each alarm to its runbook section.
    const alarmAction = this.topic.alarmAction;
    const family = { alarmAction, runbookBaseUrl: props.runbookBaseUrl };
    this.apiAlarms = new ApiAlarms(this, 'ApiAlarms', { ...family, stage: props.stage, routes: props.functions });
    this.functionAlarms = new FunctionAlarms(this, 'FunctionAlarms', { ...family, functions: props.functions });
    this.accountConcurrencyAlarm = new AccountConcurrencyAlarm(this, 'AccountConcurrencyAlarm', {
      ...family,
      accountConcurrencyLimit: props.accountConcurrencyLimit,
    });
    this.productAlarms = new ProductAlarms(this, 'ProductAlarms', {
      ...family,
      services: uniqueServices(props.functions),
      dailySendBudget: props.dailySendBudget,
      budgetWarningRatio: props.budgetWarningRatio,
    });
    this.sesAlarms = new SesAlarms(this, 'SesAlarms', family);
    if (props.sesConfigurationSet) {
      this.configurationSetAlarms = new ConfigurationSetAlarms(this, 'ConfigurationSetAlarms', {
        ...family,
        configurationSetName: props.sesConfigurationSet.name,
      });
    }
    this.tableAlarms = new TableAlarms(this, 'TableAlarms', { ...family, tables: props.tables });
    this.cloudFrontAlarm = new CloudFrontAlarm(this, 'CloudFrontAlarm', {
      ...family,
      distribution: props.distribution,
    });

    const unconditional = [
      this.apiAlarms,
      this.functionAlarms,
      this.accountConcurrencyAlarm,
      this.productAlarms,
      this.sesAlarms,
      ...(this.configurationSetAlarms ? [this.configurationSetAlarms] : []),
      this.tableAlarms,
    ].flatMap(({ alarms }) => alarms);
    const cloudFront = this.cloudFrontAlarm.alarms;
    this.alarms = [...unconditional, ...cloudFront];
    this.monitoringDashboard = new MonitoringDashboard(this, 'Dashboard', {
      // A conditional alarm may not exist: it is left out rather than referenced.
      alarms: this.cloudFrontAlarm.conditional ? unconditional : this.alarms,
      stage: props.stage,
      functions: props.functions,
      tables: props.tables,
      distribution: props.distribution,
      sesConfigurationSet: props.sesConfigurationSet,
    });

    this.encryptionKey = this.topic.encryptionKey;
    this.alarmTopic = this.topic.topic;
    this.dashboard = this.monitoringDashboard.dashboard;
    this.dashboardUrl = this.monitoringDashboard.url;
  }
}
