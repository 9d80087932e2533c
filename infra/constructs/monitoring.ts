import {
  Aws,
  CfnCondition,
  Duration,
  Fn,
  RemovalPolicy,
  Stack,
  Token,
  Validations,
  type CfnResource,
} from 'aws-cdk-lib';
import type { IHttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  GraphWidgetView,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key, type IKey } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import {
  failureKindsByService,
  failureMetricByService,
  metricDimensions,
  metricsNamespace,
  outcomeMetricByService,
  outcomeMetrics,
  refusalsByService,
  type FailureKind,
  type FunctionService,
} from '../../core/observability/product-metrics';
import type { ApiFunction } from './api';

/** CloudFront publishes its metrics in this region only, whatever the stack's region. */
export const cloudFrontMetricsRegion = 'us-east-1';

/**
 * Lambda's default concurrency quota per account and region. New accounts may start far lower
 * (Service Quotas shows yours): pass `accountConcurrencyLimit` then; the throttle alarms fire
 * either way, since a function at the limit is throttled.
 */
export const defaultAccountConcurrencyLimit = 1000;

/** The share of the daily send budget at which the operator is warned, while sends still go out. */
export const defaultBudgetWarningRatio = 0.8;

/** SES reviews an account at about these rates (and pauses it at about twice them): README, 'Operate'. */
export const sesReputationThresholds = { bounceRate: 0.05, complaintRate: 0.001 } as const;

/**
 * How many failures of a kind in five minutes page the operator. One is enough where every
 * request fails until someone acts (a configuration, a missing PDF, a bug); three where one
 * failure can be a passing blip that the SDK's retry did not absorb.
 */
export const failureAlarmThresholds: Readonly<Record<FailureKind, number>> = {
  SenderNotVerified: 1,
  PdfUnavailable: 1,
  Misconfigured: 1,
  Unexpected: 1,
  SesRejected: 3,
  SesUnavailable: 3,
  StorageUnavailable: 3,
};

const failureFirstSteps: Readonly<Record<FailureKind, string>> = {
  SenderNotVerified:
    'SES refuses the sender identity (or, in the sandbox, the recipient): every send fails with the page\'s "Email Configuration Error". First: SES console, Identities: verify the sender (click the link, or publish the DKIM records); in the sandbox, request production access.',
  PdfUnavailable:
    'The cheat-sheet PDF cannot be read from its bucket: every send fails. First: check the object in CheatSheetBucketName; redeploy (npm run build && npx cdk deploy) to put it back.',
  Misconfigured:
    "A function's environment is missing or malformed: every request fails. First: the function's log group, message 'not configured'; redeploy the stack.",
  Unexpected:
    "A function failed in a way the code does not expect (a bug). First: the function's log group for the error and its stack trace; X-Ray for the request.",
  SesRejected:
    'SES rejects messages for a reason other than verification (content, a suppressed or invalid address, sending paused). First: the function log (causeName, causeMessage); SES console, Account dashboard: is sending paused?',
  SesUnavailable:
    'SES throttles or fails: readers are asked to retry. First: SES console, Account dashboard (sending quota and rate) and the AWS Health Dashboard.',
  StorageUnavailable:
    'DynamoDB fails or cannot be reached: readers are asked to retry. First: the DynamoDB throttle and system-error alarms, and the AWS Health Dashboard.',
};

export interface MonitoredTable {
  readonly table: ITable;
  /**
   * The operations the functions call on it: DynamoDB reports ThrottledRequests and SystemErrors
   * per operation only, and a metric-math alarm costs per metric, so only these are summed.
   */
  readonly operations: readonly Operation[];
}

export interface MonitoringProps {
  /** The API's stage: its 5xx and each route's latency. */
  readonly stage: IHttpStage;
  /** The functions behind the API, each with its route (Api.functions). */
  readonly functions: readonly ApiFunction[];
  /** Both tables, with the operations the functions call on each. */
  readonly tables: readonly MonitoredTable[];
  readonly distribution: IDistribution;
  /** The product's daily send budget: the budget alarms read the same value the send function enforces. */
  readonly dailySendBudget: number;
  /**
   * Subscribe this address to the alarm topic by e-mail (SNS mails a confirmation link first).
   *
   * @default - no subscription: the alarms still exist, on the dashboard and in the console
   */
  readonly alarmEmail?: string;
  /**
   * The KMS key encrypting the alarm topic; CloudWatch is allowed to use it.
   *
   * @default - a new customer managed key for the topic alone, rotated yearly (about 1 USD a month)
   */
  readonly encryptionKey?: IKey;
  /**
   * The SES configuration set whose CloudWatch event destination counts deliveries, bounces,
   * complaints and rejects, and the dimension it publishes them by.
   *
   * @default - the SES account's own sending metrics (no dimension)
   */
  readonly sesConfigurationSet?: { readonly name: string; readonly dimensionName: string };
  /** @default defaultAccountConcurrencyLimit (1000) */
  readonly accountConcurrencyLimit?: number;
  /** @default defaultBudgetWarningRatio (0.8) */
  readonly budgetWarningRatio?: number;
}

interface AlarmSpec {
  readonly metric: IMetric;
  readonly threshold: number;
  readonly description: string;
  readonly treatMissingData: TreatMissingData;
  /** @default GREATER_THAN_OR_EQUAL_TO_THRESHOLD */
  readonly comparisonOperator?: ComparisonOperator;
  /** @default 1 */
  readonly evaluationPeriods?: number;
  /** @default evaluationPeriods */
  readonly datapointsToAlarm?: number;
}

const fiveMinutes = Duration.minutes(5);

/**
 * Where trouble shows first: an encrypted SNS topic every alarm notifies (on ALARM and on OK),
 * the alarms themselves (API, functions, the product's own metrics, SES reputation, DynamoDB,
 * CloudFront) and one dashboard. Thresholds and first steps: README, 'Operate'.
 */
export class Monitoring extends Construct {
  /** The key encrypting the topic: the one given, or the topic's own. */
  public readonly encryptionKey: IKey;
  /** Every alarm's ALARM and OK actions publish here. */
  public readonly alarmTopic: Topic;
  /** Every alarm of the stack, the CloudFront one included when it is created. */
  public readonly alarms: Alarm[] = [];
  /**
   * CloudFront's 5xx error rate. Created only where CloudFront's metrics are (us-east-1): when
   * the stack's region is unknown at synth, it carries a condition on `AWS::Region`; when it is
   * known to be another region, it is absent (README, 'Operate').
   */
  public readonly cloudFrontErrorAlarm?: Alarm;
  public readonly dashboard: Dashboard;
  /** The dashboard in the CloudWatch console. */
  public readonly dashboardUrl: string;

  private readonly alarmAction: SnsAction;
  private readonly alarmNamePrefix: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.alarmNamePrefix = stack.stackName;

    this.encryptionKey =
      props.encryptionKey ??
      new Key(this, 'AlarmTopicKey', {
        description: 'Encrypts the alarm topic of the First 100 Days site.',
        enableKeyRotation: true,
        // The topic stores no message once delivered: nothing is left to decrypt after a teardown.
        removalPolicy: RemovalPolicy.DESTROY,
      });
    // CloudWatch encrypts what it publishes to the topic with this key (AWS's documented key policy).
    this.encryptionKey.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );

    this.alarmTopic = new Topic(this, 'AlarmTopic', {
      displayName: 'First 100 Days site alarms',
      masterKey: this.encryptionKey,
      // A Deny on aws:SecureTransport = false: nothing publishes or subscribes over plain HTTP.
      enforceSSL: true,
    });
    // The topic policy replaces SNS's default one, so CloudWatch gets an explicit grant, for
    // this account's alarms only.
    this.alarmTopic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.alarmTopic.topicArn],
        conditions: {
          ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
        },
      }),
    );
    if (props.alarmEmail) {
      const subscription = this.alarmTopic.addSubscription(new EmailSubscription(props.alarmEmail));
      Validations.of(subscription.node.defaultChild ?? subscription).acknowledge({
        id: 'Serverless::Serverless-SNSRedrivePolicy',
        reason:
          'An alarm e-mail SNS cannot deliver (after its own retries) leaves nothing unseen: the alarm stays in its state in the CloudWatch console and on the dashboard. A dead-letter queue would hold the notification where nobody looks, and would itself need watching.',
      });
    }
    this.alarmAction = new SnsAction(this.alarmTopic);

    this.addApiAlarms(props);
    this.addFunctionAlarms(props);
    this.addProductAlarms(props);
    this.addSesAlarms();
    this.addTableAlarms(props);
    this.cloudFrontErrorAlarm = this.addCloudFrontAlarm(props);

    this.dashboard = this.createDashboard(props);
    this.dashboardUrl = `https://console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${this.dashboard.dashboardName}`;
  }

  private alarm(id: string, spec: AlarmSpec): Alarm {
    const evaluationPeriods = spec.evaluationPeriods ?? 1;
    const alarm = new Alarm(this, id, {
      alarmName: `${this.alarmNamePrefix}-${id}`,
      alarmDescription: spec.description,
      metric: spec.metric,
      threshold: spec.threshold,
      comparisonOperator: spec.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods,
      datapointsToAlarm: spec.datapointsToAlarm ?? evaluationPeriods,
      treatMissingData: spec.treatMissingData,
    });
    alarm.addAlarmAction(this.alarmAction);
    alarm.addOkAction(this.alarmAction);
    this.alarms.push(alarm);
    return alarm;
  }

  private addApiAlarms({ stage, functions }: MonitoringProps): void {
    // Every 5xx is a reader who saw an error. One can be a blip the reader retries; three in five
    // minutes is a pattern. No requests, no errors: missing data is fine.
    this.alarm('Api5xx', {
      metric: stage.metricServerError({ period: fiveMinutes, statistic: 'Sum' }),
      threshold: 3,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description:
        'The API answered 3 or more 5xx replies in 5 minutes: readers see an error instead of the cheat sheet. First: the failure-kind alarms and the dashboard say which; then the function log groups.',
    });
    for (const { route, timeout } of functions) {
      // Past half the timeout (5 s, 7.5 s) an SDK call is retrying or timing out: a normal call
      // takes milliseconds and loading the send bundle about 130 ms (README, 'Tracing'), so even
      // a cold request stays far below. Two slow periods in fifteen minutes is no single cold start.
      const thresholdMs = timeout.toMilliseconds() / 2;
      this.alarm(`Latency${routeId(route)}`, {
        metric: routeLatency(stage, route, 'p99'),
        threshold: thresholdMs,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: `POST ${route} took ${thresholdMs} ms or more at p99 in 2 of 3 five-minute periods: half its ${timeout.toSeconds()} s timeout, so a service it calls is slow or retrying. First: X-Ray traces of the function for the slow call; the DynamoDB and SES alarms.`,
      });
    }
  }

  private addFunctionAlarms({ functions, accountConcurrencyLimit }: MonitoringProps): void {
    for (const { function: fn, name: service } of functions) {
      const name = fn.node.id;
      // No reserved concurrency: a throttle means the account's pool is exhausted.
      this.alarm(`${name}Throttles`, {
        metric: fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum' }),
        threshold: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: `Lambda throttled ${service}: the account's concurrency is used up, readers get errors. First: the dashboard's concurrency graph; Service Quotas, Lambda concurrent executions (new accounts start low).`,
      });
      // The handlers turn every failure they know into a JSON reply, so an Error here is a crash,
      // a timeout or memory running out: the reader got a bare 500.
      this.alarm(`${name}Errors`, {
        metric: fn.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
        threshold: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: `${service} crashed, timed out or ran out of memory (the handler answers every known failure itself). First: its log group, 'Task timed out' or the error; X-Ray for the slow call.`,
      });
    }
    const limit = accountConcurrencyLimit ?? defaultAccountConcurrencyLimit;
    // Account-wide, since the functions draw from the account's unreserved pool, which other
    // workloads share: the API's throttle (10 requests a second) keeps these functions far below it.
    this.alarm('AccountConcurrency', {
      metric: new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'ConcurrentExecutions',
        statistic: 'Maximum',
        period: fiveMinutes,
      }),
      threshold: Math.floor(limit * 0.8),
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: `Lambda functions in this account and region run ${Math.floor(limit * 0.8)} or more at once: 80% of an assumed quota of ${limit}; at the quota every function is throttled. First: which functions (CloudWatch, Lambda, by function); raise the quota in Service Quotas.`,
    });
  }

  private addProductAlarms({ functions, dailySendBudget, budgetWarningRatio }: MonitoringProps): void {
    // The product's metrics are per service: functions counting under one service share its alarms.
    const services = uniqueServices(functions);
    for (const service of services) {
      const metricName = failureMetricByService[service];
      for (const kind of failureKindsByService[service]) {
        const threshold = failureAlarmThresholds[kind];
        this.alarm(`${metricName}${kind}`, {
          metric: productMetric(metricName, service, fiveMinutes, kind),
          threshold,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          description: `${service}: ${threshold} or more ${metricName} (${kind}) in 5 minutes. ${failureFirstSteps[kind]}`,
        });
      }
    }

    // The budget is the whole product's: every function that sends counts towards it.
    const senders = services.filter((service) => outcomeMetricByService[service] === outcomeMetrics.cheatSheetSent);
    if (senders.length === 0) return;
    const warningAt = Math.ceil(dailySendBudget * (budgetWarningRatio ?? defaultBudgetWarningRatio));
    // A one-day period with CloudWatch's sliding evaluation window: the sends of the last 24
    // hours, the same window the budget counts.
    this.alarm('SendBudgetNearlySpent', {
      metric: sumOf(
        senders.map((service) => productMetric(outcomeMetrics.cheatSheetSent, service, Duration.days(1))),
        Duration.days(1),
      ),
      threshold: warningAt,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: `${warningAt} or more cheat sheets sent in 24 hours: the daily send budget of ${dailySendBudget} is nearly spent, then readers are refused (503). First: the dashboard's funnel: real readers (a launch) or a spray? Raise -c dailySendBudget for a launch; for a spray, the refusals graph and WAF.`,
    });
    this.alarm('SendBudgetSpent', {
      metric: sumOf(
        services
          .filter((service) => refusalsByService[service].includes('SendBudgetRefused'))
          .map((service) => productMetric('SendBudgetRefused', service, fiveMinutes)),
        fiveMinutes,
      ),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: `The daily send budget of ${dailySendBudget} is spent: readers are refused (503) until older sends leave the 24-hour window; their requests are still saved. First: as for SendBudgetNearlySpent; follow up the saved requests once sending resumes.`,
    });
  }

  private addSesAlarms(): void {
    // SES updates the rates as it learns of bounces and complaints; silence does not make a bad
    // rate good, so missing data keeps the alarm where it is.
    this.alarm('SesBounceRate', {
      metric: sesMetric('Reputation.BounceRate', 'Maximum', Duration.hours(1)),
      threshold: sesReputationThresholds.bounceRate,
      treatMissingData: TreatMissingData.IGNORE,
      description:
        "The SES account's bounce rate is 5% or more: SES puts the account under review at about that and may pause sending. First: SES console, Reputation metrics; the dashboard's bounce events: a spray of made-up addresses? Bounced addresses are suppressed already.",
    });
    this.alarm('SesComplaintRate', {
      metric: sesMetric('Reputation.ComplaintRate', 'Maximum', Duration.hours(1)),
      threshold: sesReputationThresholds.complaintRate,
      treatMissingData: TreatMissingData.IGNORE,
      description:
        "The SES account's complaint rate is 0.1% or more: SES puts the account under review at about that and may pause sending. First: SES console, Reputation metrics; strangers are being sent the cheat sheet: check the refusals graph, lower the caps or turn on WAF.",
    });
  }

  private addTableAlarms({ tables }: MonitoringProps): void {
    for (const { table, operations } of tables) {
      const name = tableId(table);
      // On demand, a throttle means a hot key or the table's account limit: a reader's request failed.
      this.alarm(`${name}Throttles`, {
        metric: tableOperationsSum(table, 'ThrottledRequests', operations),
        threshold: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: `DynamoDB throttled requests on ${name}: readers were asked to retry. First: CloudWatch, the table's consumed capacity by operation; a spray of requests shows on the dashboard's funnel and refusals.`,
      });
      // AWS-side 500s; the SDK retries once, so an isolated one is absorbed.
      this.alarm(`${name}SystemErrors`, {
        metric: tableOperationsSum(table, 'SystemErrors', operations),
        threshold: 3,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: `DynamoDB answered 3 or more system errors in 5 minutes on ${name}: a service problem. First: the AWS Health Dashboard for DynamoDB in this region.`,
      });
    }
  }

  private addCloudFrontAlarm({ distribution }: MonitoringProps): Alarm | undefined {
    const region = Stack.of(this).region;
    if (!Token.isUnresolved(region) && region !== cloudFrontMetricsRegion) return undefined;
    // The static site rarely fails; 5% of responses in two of three periods is an origin problem,
    // not one unlucky request on a quiet site.
    const alarm = this.alarm('CloudFront5xxRate', {
      metric: cloudFrontErrorRate(distribution),
      threshold: 5,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description:
        "CloudFront answered 5% or more of requests with 5xx in 2 of 3 five-minute periods: the site or the API is failing at the edge. First: the API 5xx alarm; if quiet, the distribution's standard logs (access-log bucket, cloudfront/) for the failing paths.",
    });
    if (Token.isUnresolved(region)) {
      const inCloudFrontRegion = new CfnCondition(this, 'InCloudFrontMetricsRegion', {
        expression: Fn.conditionEquals(Aws.REGION, cloudFrontMetricsRegion),
      });
      (alarm.node.defaultChild as CfnResource).cfnOptions.condition = inCloudFrontRegion;
    }
    return alarm;
  }

  private createDashboard(props: MonitoringProps): Dashboard {
    const { functions, stage, tables, distribution } = props;
    const dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${this.alarmNamePrefix}-${Aws.REGION}`,
      defaultInterval: Duration.days(7),
    });
    const hour = Duration.hours(1);
    const services = uniqueServices(functions);

    dashboard.addWidgets(
      new TextWidget({
        width: 24,
        height: 3,
        markdown: [
          '## First 100 Days site',
          'Read top to bottom: alarms; the funnel (requests saved → cheat sheets sent, per hour: the two lines should move together); refusals (the limits at work: a spike is a spray); failures by kind (should be empty); latency per route; SES reputation and delivery events; throttles. README, section Operate, says what to do for each alarm.',
        ].join('\n\n'),
      }),
      new AlarmStatusWidget({
        title: 'Alarms',
        width: 24,
        height: 4,
        // A conditional alarm may not exist: it is left out rather than referenced.
        alarms: this.alarms.filter(
          (alarm) => alarm !== this.cloudFrontErrorAlarm || !Token.isUnresolved(Stack.of(this).region),
        ),
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Funnel per hour: requests saved → cheat sheets sent',
        width: 8,
        view: GraphWidgetView.BAR,
        left: services.map((service) =>
          productMetric(
            outcomeMetricByService[service],
            service,
            hour,
            undefined,
            `${outcomeMetricByService[service]} (${service})`,
          ),
        ),
      }),
      new GraphWidget({
        title: 'Refusals by reason, per hour',
        width: 8,
        left: services.flatMap((service) =>
          refusalsByService[service].map((refusal) =>
            productMetric(refusal, service, hour, undefined, `${refusal} (${service})`),
          ),
        ),
      }),
      new GraphWidget({
        title: 'Failures by kind, per 5 minutes',
        width: 8,
        left: services.flatMap((service) =>
          failureKindsByService[service].map((kind) =>
            productMetric(failureMetricByService[service], service, fiveMinutes, kind, `${kind} (${service})`),
          ),
        ),
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Latency per route (ms)',
        width: 12,
        left: functions.flatMap(({ route }) => [
          routeLatency(stage, route, 'p50', `p50 ${route}`),
          routeLatency(stage, route, 'p99', `p99 ${route}`),
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
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'SES reputation (alarms at 5% bounces, 0.1% complaints)',
        width: 12,
        left: [sesMetric('Reputation.BounceRate', 'Maximum', hour, 'Bounce rate')],
        right: [sesMetric('Reputation.ComplaintRate', 'Maximum', hour, 'Complaint rate')],
        leftAnnotations: [{ value: sesReputationThresholds.bounceRate, label: 'Bounce review' }],
        rightAnnotations: [{ value: sesReputationThresholds.complaintRate, label: 'Complaint review' }],
      }),
      new GraphWidget({
        title: props.sesConfigurationSet
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
              ...(props.sesConfigurationSet && {
                dimensionsMap: { [props.sesConfigurationSet.dimensionName]: props.sesConfigurationSet.name },
              }),
            }),
        ),
      }),
    );
    dashboard.addWidgets(
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
        left: [
          new Metric({
            namespace: 'AWS/Lambda',
            metricName: 'ConcurrentExecutions',
            statistic: 'Maximum',
            period: fiveMinutes,
            label: 'Account concurrency (max)',
          }),
        ],
        right: functions.flatMap(({ function: fn, name, services: [service] }) => [
          fn.metricErrors({ period: fiveMinutes, statistic: 'Sum', label: `Errors ${name}` }),
          new Metric({
            namespace: metricsNamespace,
            metricName: 'ColdStart',
            // Powertools adds the function's name to the cold-start metric's dimensions. A function
            // that counts under two services counts its cold start under each: one is enough.
            dimensionsMap: { [metricDimensions.service]: service, function_name: fn.functionName },
            statistic: 'Sum',
            period: fiveMinutes,
            label: `Cold starts ${name}`,
          }),
        ]),
      }),
      new GraphWidget({
        title: 'CloudFront 5xx error rate (%, us-east-1)',
        width: 8,
        left: [cloudFrontErrorRate(distribution).with({ region: cloudFrontMetricsRegion })],
      }),
    );
    return dashboard;
  }
}

/** An HTTP API route's metric: route-level (detailed) metrics are by ApiId, Stage, Method and Resource. */
function routeLatency(stage: IHttpStage, route: string, statistic: string, label?: string): Metric {
  return new Metric({
    namespace: 'AWS/ApiGateway',
    metricName: 'Latency',
    dimensionsMap: { ApiId: stage.api.apiId, Stage: stage.stageName, Method: 'POST', Resource: route },
    statistic,
    period: fiveMinutes,
    label,
  });
}

function productMetric(
  metricName: string,
  service: string,
  period: Duration,
  kind?: FailureKind,
  label?: string,
): Metric {
  return new Metric({
    namespace: metricsNamespace,
    metricName,
    dimensionsMap: {
      [metricDimensions.service]: service,
      ...(kind !== undefined && { [metricDimensions.kind]: kind }),
    },
    statistic: 'Sum',
    period,
    label,
  });
}

/** One metric, or the sum of several (a metric-math alarm costs per metric, so one stays plain). */
function sumOf(metrics: readonly Metric[], period: Duration): IMetric {
  if (metrics.length === 1) return metrics[0];
  const usingMetrics = Object.fromEntries(metrics.map((metric, index) => [`m${index}`, metric]));
  return new MathExpression({ expression: Object.keys(usingMetrics).join(' + '), usingMetrics, period });
}

/**
 * A DynamoDB metric that exists per operation only (ThrottledRequests, SystemErrors), summed over
 * `operations`; the ids carry the table's name so two tables can share a graph.
 */
function tableOperationsSum(
  table: ITable,
  metricName: string,
  operations: readonly Operation[],
  label?: string,
): MathExpression {
  const prefix = tableId(table).replace(/^./, (first) => first.toLowerCase());
  const usingMetrics = Object.fromEntries(
    operations.map((operation) => [
      `${prefix}${operation}`,
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: table.tableName, Operation: operation },
        statistic: 'Sum',
        period: fiveMinutes,
      }),
    ]),
  );
  // FILL: an operation with no datapoint counts as 0 rather than blanking the sum.
  const expression = Object.keys(usingMetrics)
    .map((id) => `FILL(${id}, 0)`)
    .join(' + ');
  return new MathExpression({
    expression,
    usingMetrics,
    period: fiveMinutes,
    label: label ?? `${metricName}, ${tableId(table)}`,
  });
}

/** The SES account's own metrics (no dimension). */
function sesMetric(metricName: string, statistic: string, period: Duration, label?: string): Metric {
  return new Metric({ namespace: 'AWS/SES', metricName, statistic, period, label });
}

function cloudFrontErrorRate(distribution: IDistribution): Metric {
  return new Metric({
    namespace: 'AWS/CloudFront',
    metricName: '5xxErrorRate',
    dimensionsMap: { DistributionId: distribution.distributionId, Region: 'Global' },
    statistic: 'Average',
    period: fiveMinutes,
  });
}

/** `/api/send-cheat-sheet` → `ApiSendCheatSheet`: an id and alarm-name part. */
function routeId(route: string): string {
  return route
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

function uniqueServices(functions: readonly ApiFunction[]): FunctionService[] {
  return [...new Set(functions.flatMap(({ services }) => services))];
}

/** The table's logical name part: its construct id (`RequestsTable`, `SendQuotaTable`). */
function tableId(table: ITable): string {
  return table.node.id;
}
