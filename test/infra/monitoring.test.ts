/** The alarm topic, every alarm, the dashboard and its output. */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AttributeType, Operation, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Duration } from 'aws-cdk-lib';
import { Monitoring, failureAlarmThresholds } from '../../infra/constructs/monitoring';
import type { CheatSheetSiteStack } from '../../infra/stack';
import {
  failureKindsByService,
  failureMetricByService,
  metricsNamespace,
} from '../../core/observability/product-metrics';
import { createTestApp, resourceByPrefix } from './support/synth';

type Resource = { Properties: Record<string, any>; Condition?: string };
type Dimension = { Name: string; Value: unknown };

function alarmsOf(template: Template): Array<[string, Resource]> {
  return Object.entries(template.findResources('AWS::CloudWatch::Alarm')) as Array<[string, Resource]>;
}

/** The alarm named `<stack>-<name>`. */
function alarmNamed(template: Template, name: string): Resource {
  const found = alarmsOf(template).filter(([, alarm]) => alarm.Properties.AlarmName === `First100DaysSite-${name}`);
  expect(found).toHaveLength(1);
  return found[0][1];
}

/** The single metric of a plain alarm, or each metric of a metric-math alarm. */
function metricsOf(alarm: Resource): Array<{ namespace: string; name: string; dimensions: Dimension[] }> {
  const { Properties: p } = alarm;
  if (p.MetricName) return [{ namespace: p.Namespace, name: p.MetricName, dimensions: p.Dimensions ?? [] }];
  return (
    p.Metrics as Array<{ MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions?: Dimension[] } } }>
  )
    .filter((query) => query.MetricStat)
    .map(({ MetricStat }) => ({
      namespace: MetricStat!.Metric.Namespace,
      name: MetricStat!.Metric.MetricName,
      dimensions: MetricStat!.Metric.Dimensions ?? [],
    }));
}

const dimension = (dimensions: Dimension[], name: string) => dimensions.find((d) => d.Name === name)?.Value;

describe('the monitoring', () => {
  let stack: CheatSheetSiteStack;
  let template: Template;
  let topicId: string;
  beforeAll(() => {
    ({ stack } = createTestApp());
    template = Template.fromStack(stack);
    topicId = resourceByPrefix(template, 'AWS::SNS::Topic', 'MonitoringAlarmTopic').logicalId;
  });

  test('notifies the alarm topic from every alarm, when it fires and when it is OK again', () => {
    const alarms = alarmsOf(template);
    expect(alarms.length).toBeGreaterThan(20);
    for (const [, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId }]);
    }
  });

  test('says in every alarm what it means and what to do first, with a threshold and a missing-data rule', () => {
    for (const [id, alarm] of alarmsOf(template)) {
      const { AlarmDescription, Threshold, TreatMissingData } = alarm.Properties;
      expect({ id, described: typeof AlarmDescription === 'string' && AlarmDescription.length > 80 }).toEqual({
        id,
        described: true,
      });
      expect(AlarmDescription).toMatch(/First: /);
      expect(typeof Threshold).toBe('number');
      expect(['notBreaching', 'ignore', 'breaching', 'missing']).toContain(TreatMissingData);
    }
  });

  test("encrypts the topic with the stack's one rotated customer managed key, which CloudWatch may use", () => {
    template.resourceCountIs('AWS::KMS::Key', 1);
    const key = resourceByPrefix(template, 'AWS::KMS::Key', 'EncryptionKey');
    expect(key.resource.Properties.EnableKeyRotation).toBe(true);
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [key.logicalId, 'Arn'] } });
    const statements = (key.resource.Properties.KeyPolicy as { Statement: any[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      }),
    );
  });

  test("refuses any use of the topic without TLS, and lets only this account's alarms publish", () => {
    const policy = resourceByPrefix(template, 'AWS::SNS::TopicPolicy', 'MonitoringAlarmTopicPolicy').resource;
    const statements = (policy.Properties.PolicyDocument as { Statement: any[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 'sns:Publish',
        Principal: '*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    const publish = statements.find((statement) => statement.Effect === 'Allow');
    expect(publish).toMatchObject({
      Action: 'sns:Publish',
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Resource: { Ref: topicId },
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    expect(JSON.stringify(publish.Condition.ArnLike['aws:SourceArn'])).toContain(':alarm:*');
  });

  test('subscribes alarmEmail by e-mail, and nothing without it', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    const withEmail = Template.fromStack(createTestApp({ context: { alarmEmail: 'ops@example.com' } }).stack);
    withEmail.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: resourceByPrefix(withEmail, 'AWS::SNS::Topic', 'MonitoringAlarmTopic').logicalId },
    });
  });

  test('alarms on the API 5xx replies of its stage', () => {
    const [metric] = metricsOf(alarmNamed(template, 'Api5xx'));
    expect(metric).toMatchObject({ namespace: 'AWS/ApiGateway', name: '5xx' });
    expect(dimension(metric.dimensions, 'ApiId')).toEqual({
      Ref: resourceByPrefix(template, 'AWS::ApiGatewayV2::Api', 'ApiHttpApi').logicalId,
    });
    expect(dimension(metric.dimensions, 'Stage')).toBe('$default');
  });

  test("alarms on each function's route at p99, past half the function's timeout", () => {
    const latencyAlarms = alarmsOf(template).filter(([, alarm]) => alarm.Properties.MetricName === 'Latency');
    expect(latencyAlarms).toHaveLength(stack.api.functions.length);
    for (const { route, timeout } of stack.api.functions) {
      const found = latencyAlarms.filter(([, alarm]) => dimension(alarm.Properties.Dimensions, 'Resource') === route);
      expect(found).toHaveLength(1);
      const { Properties } = found[0][1];
      expect(dimension(Properties.Dimensions, 'Method')).toBe('POST');
      expect(Properties.ExtendedStatistic).toBe('p99');
      expect(Properties.Threshold).toBe(timeout.toMilliseconds() / 2);
    }
  });

  test("alarms on each function's throttles and errors", () => {
    for (const { function: fn } of stack.api.functions) {
      const functionId = stack.getLogicalId(fn.node.defaultChild as never);
      for (const metricName of ['Throttles', 'Errors']) {
        const found = alarmsOf(template).filter(
          ([, alarm]) =>
            alarm.Properties.MetricName === metricName &&
            JSON.stringify(dimension(alarm.Properties.Dimensions, 'FunctionName')) ===
              JSON.stringify({ Ref: functionId }),
        );
        expect({ functionId, metricName, alarms: found.length }).toEqual({ functionId, metricName, alarms: 1 });
        expect(found[0][1].Properties.Threshold).toBe(1);
      }
    }
  });

  test("alarms on the account's concurrency at 80% of the assumed 1000", () => {
    const alarm = alarmNamed(template, 'AccountConcurrency');
    expect(metricsOf(alarm)).toEqual([{ namespace: 'AWS/Lambda', name: 'ConcurrentExecutions', dimensions: [] }]);
    expect(alarm.Properties.Threshold).toBe(800);
  });

  test("alarms on each function's failures, one alarm per kind, at the documented threshold", () => {
    for (const service of new Set(stack.api.functions.flatMap(({ services }) => services))) {
      const metricName = failureMetricByService[service];
      for (const kind of failureKindsByService[service]) {
        const alarm = alarmNamed(template, `${metricName}${kind}`);
        const [metric, ...others] = metricsOf(alarm);
        expect(others).toEqual([]);
        expect(metric).toMatchObject({ namespace: metricsNamespace, name: metricName });
        expect(metric.dimensions).toHaveLength(2);
        expect(dimension(metric.dimensions, 'service')).toBe(service);
        expect(dimension(metric.dimensions, 'kind')).toBe(kind);
        expect(alarm.Properties.Threshold).toBe(failureAlarmThresholds[kind]);
      }
    }
  });

  test('warns at 80% of the daily send budget over 24 hours, and when the budget refuses, from the same value', () => {
    for (const [context, budget] of [
      [{}, 500],
      [{ dailySendBudget: '2000' }, 2000],
    ] as const) {
      const budgetTemplate =
        Object.keys(context).length === 0 ? template : Template.fromStack(createTestApp({ context }).stack);
      const nearly = alarmNamed(budgetTemplate, 'SendBudgetNearlySpent');
      expect(nearly.Properties).toMatchObject({ MetricName: 'CheatSheetSent', Period: 86_400, Statistic: 'Sum' });
      expect(nearly.Properties.Threshold).toBe(budget * 0.8);
      expect(nearly.Properties.AlarmDescription).toContain(`budget of ${budget}`);
      const spent = alarmNamed(budgetTemplate, 'SendBudgetSpent');
      expect(metricsOf(spent).map(({ name }) => name)).toEqual(['SendBudgetRefused']);
      expect(spent.Properties.Threshold).toBe(1);
    }
  });

  test("alarms on the SES account's bounce rate at 5% and complaint rate at 0.1%", () => {
    for (const [name, metricName, threshold] of [
      ['SesBounceRate', 'Reputation.BounceRate', 0.05],
      ['SesComplaintRate', 'Reputation.ComplaintRate', 0.001],
    ] as const) {
      const alarm = alarmNamed(template, name);
      expect(metricsOf(alarm)).toEqual([{ namespace: 'AWS/SES', name: metricName, dimensions: [] }]);
      expect(alarm.Properties).toMatchObject({
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  test('alarms on throttled requests and system errors of both tables, over every operation the functions may call', () => {
    const grantedOperations = new Map<string, Set<string>>();
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
      for (const statement of (policy.Properties.PolicyDocument as { Statement: unknown[] }).Statement as Array<{
        Action: string | string[];
        Resource: unknown;
      }>) {
        const tableId = JSON.stringify(statement.Resource).match(/"(Data\w+Table\w+)","Arn"/)?.[1];
        if (!tableId || JSON.stringify(statement.Resource).includes('/index/')) continue;
        for (const action of [statement.Action].flat().filter((action) => action.startsWith('dynamodb:'))) {
          grantedOperations.set(
            tableId,
            new Set([...(grantedOperations.get(tableId) ?? []), action.replace('dynamodb:', '')]),
          );
        }
      }
    }
    // The e-mail index's Query counts as the table's.
    const requestsTableId = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').logicalId;
    grantedOperations.get(requestsTableId)!.add('Query');
    expect(grantedOperations.size).toBe(2);

    for (const [tableId, operations] of grantedOperations) {
      for (const metricName of ['ThrottledRequests', 'SystemErrors']) {
        const alarmed = alarmsOf(template)
          .map(([, alarm]) => metricsOf(alarm))
          .filter(
            (metrics) =>
              metrics.every(
                (metric) =>
                  metric.name === metricName &&
                  JSON.stringify(dimension(metric.dimensions, 'TableName')) === JSON.stringify({ Ref: tableId }),
              ) && metrics.length > 0,
          );
        expect({ tableId, metricName, alarms: alarmed.length }).toEqual({ tableId, metricName, alarms: 1 });
        const alarmedOperations = new Set(alarmed[0].map((metric) => dimension(metric.dimensions, 'Operation')));
        expect(alarmedOperations).toEqual(operations);
      }
    }
  });

  test("alarms on CloudFront's 5xx rate only where its metrics are: conditioned on us-east-1 when the region is unknown", () => {
    const alarm = alarmNamed(template, 'CloudFront5xxRate');
    expect(metricsOf(alarm)[0]).toMatchObject({ namespace: 'AWS/CloudFront', name: '5xxErrorRate' });
    expect(dimension(metricsOf(alarm)[0].dimensions, 'Region')).toBe('Global');
    expect(alarm.Condition).toBeDefined();
    expect(template.toJSON().Conditions[alarm.Condition!]).toEqual({
      'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'],
    });
  });

  test('creates the CloudFront alarm unconditionally in us-east-1, and none in another known region', () => {
    const inUsEast1 = Template.fromStack(
      createTestApp({ env: { account: '123456789012', region: 'us-east-1' } }).stack,
    );
    expect(alarmNamed(inUsEast1, 'CloudFront5xxRate').Condition).toBeUndefined();
    const inEurope = Template.fromStack(createTestApp({ env: { account: '123456789012', region: 'eu-west-1' } }).stack);
    expect(alarmsOf(inEurope).filter(([, alarm]) => alarm.Properties.MetricName === '5xxErrorRate')).toEqual([]);
    expect(alarmsOf(inEurope).length).toBe(alarmsOf(template).length - 1);
  });

  test('draws one dashboard with the funnel, refusals, failures, latency, SES, throttles and CloudFront, and outputs its URL', () => {
    const dashboard = resourceByPrefix(template, 'AWS::CloudWatch::Dashboard', 'MonitoringDashboard');
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const body = JSON.stringify(dashboard.resource.Properties.DashboardBody);
    for (const text of [
      'Funnel per hour',
      'RequestSaved',
      'CheatSheetSent',
      'Refusals by reason',
      'AddressCapReached',
      'ClientCapReached',
      'SendBudgetRefused',
      'HoneypotCaught',
      'Failures by kind',
      'SesUnavailable',
      'Latency per route',
      'Reputation.BounceRate',
      'Delivery',
      'Throttles',
      '5xxErrorRate',
    ]) {
      expect(body).toContain(text);
    }
    // CloudFront's graph reads us-east-1 wherever the stack is.
    expect(body).toContain('\\"region\\":\\"us-east-1\\"');
    const url = JSON.stringify(template.findOutputs('DashboardUrl').DashboardUrl.Value);
    expect(url).toContain('https://console.aws.amazon.com/cloudwatch/home?region=');
    expect(url).toContain('#dashboards/dashboard/');
    expect(url).toContain(`{"Ref":"${dashboard.logicalId}"}`);
  });
});

describe('the monitoring construct alone', () => {
  function monitoredStack(props: { encryptionKey?: boolean; sesConfigurationSet?: boolean; functions: number }) {
    const stack = new Stack(new App(), 'Monitored');
    const api = new HttpApi(stack, 'Api', { createDefaultStage: false });
    const stage = new HttpStage(stack, 'Stage', { httpApi: api, stageName: '$default' });
    const table = new Table(stack, 'Table', { partitionKey: { name: 'id', type: AttributeType.STRING } });
    const distribution = new Distribution(stack, 'Distribution', {
      defaultBehavior: { origin: new HttpOrigin('example.com') },
    });
    const functions = Array.from({ length: props.functions }, (_, index) => ({
      function: new LambdaFunction(stack, `Function${index}`, {
        runtime: Runtime.NODEJS_22_X,
        handler: 'index.handler',
        code: Code.fromInline('exports.handler = async () => ({});'),
      }),
      name: `function-${index}`,
      // A third function may count under both services (the no-JavaScript form runs both handlers).
      services: [
        ['save-request' as const],
        ['send-cheat-sheet' as const],
        ['save-request' as const, 'send-cheat-sheet' as const],
      ][index],
      route: `/api/route-${index}`,
      timeout: Duration.seconds(10),
    }));
    const key = props.encryptionKey ? new Key(stack, 'SharedKey', { enableKeyRotation: true }) : undefined;
    const monitoring = new Monitoring(stack, 'Monitoring', {
      stage,
      functions,
      tables: [{ table, operations: [Operation.GET_ITEM] }],
      distribution,
      dailySendBudget: 100,
      encryptionKey: key,
      ...(props.sesConfigurationSet && {
        sesConfigurationSet: { name: 'cheat-sheet-mail', dimensionName: 'ses:configuration-set' },
      }),
    });
    return { template: Template.fromStack(stack), monitoring, key };
  }

  test('uses a key it is given, creating none of its own, and still lets CloudWatch use it', () => {
    const { template, key } = monitoredStack({ encryptionKey: true, functions: 1 });
    template.resourceCountIs('AWS::KMS::Key', 1);
    const keyId = Stack.of(key!).getLogicalId(key!.node.defaultChild as never);
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    const statements = template.findResources('AWS::KMS::Key')[keyId].Properties.KeyPolicy.Statement as any[];
    expect(statements.some((statement) => statement.Principal?.Service === 'cloudwatch.amazonaws.com')).toBe(true);
  });

  test('gives every function it is given its throttle, error and latency alarms: a third function gets them too', () => {
    const { monitoring } = monitoredStack({ functions: 3 });
    const names = monitoring.alarms.map((alarm) => alarm.node.id);
    for (const index of [0, 1, 2]) {
      expect(names).toEqual(
        expect.arrayContaining([`Function${index}Throttles`, `Function${index}Errors`, `LatencyApiRoute${index}`]),
      );
    }
    // The product's alarms are per service, not per function: one set for the two senders.
    expect(names.filter((name) => name === 'SendFailedSesRejected')).toHaveLength(1);
    expect(names.filter((name) => name === 'SaveFailedStorageUnavailable')).toHaveLength(1);
  });

  test("graphs the configuration set's events by its dimension when given one", () => {
    const { template } = monitoredStack({ sesConfigurationSet: true, functions: 1 });
    const body = JSON.stringify(
      Object.values(template.findResources('AWS::CloudWatch::Dashboard'))[0].Properties.DashboardBody,
    );
    expect(body).toContain('ses:configuration-set');
    expect(body).toContain('cheat-sheet-mail');
  });
});
