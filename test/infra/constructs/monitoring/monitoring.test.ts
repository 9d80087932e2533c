import { Duration } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AttributeType, Operation, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Monitoring } from '../../../../infra/constructs/monitoring/monitoring';
import { alarmsOf } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

function monitored(region?: string, sesConfigurationSet?: { name: string; dimensionName: string }) {
  const { stack } = alarmStack({ region });
  const httpApi = new HttpApi(stack, 'Api', { createDefaultStage: false });
  const stage = new HttpStage(stack, 'Stage', { httpApi, stageName: '$default' });
  const table = new Table(stack, 'SendQuotaTable', { partitionKey: { name: 'id', type: AttributeType.STRING } });
  const distribution = new Distribution(stack, 'Distribution', {
    defaultBehavior: { origin: new HttpOrigin('example.com') },
  });
  const fn = new LambdaFunction(stack, 'SendCheatSheetFunction', {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('exports.handler = async () => ({});'),
  });
  const monitoring = new Monitoring(stack, 'Monitoring', {
    stage,
    functions: [
      {
        function: fn,
        name: 'send-cheat-sheet',
        services: ['send-cheat-sheet'],
        route: '/api/send-cheat-sheet',
        method: 'POST',
        timeout: Duration.seconds(15),
      },
    ],
    tables: [{ table, operations: [Operation.GET_ITEM] }],
    distribution,
    dailySendBudget: 500,
    accountConcurrencyLimit: 50,
    sesConfigurationSet,
  });
  return { template: Template.fromStack(stack), monitoring, stack };
}

describe('the monitoring', () => {
  test('notifies its one topic from every alarm, on ALARM and on OK', () => {
    const { template, monitoring, stack } = monitored();
    const topicId = stack.getLogicalId(monitoring.alarmTopic.node.defaultChild as never);
    const alarms = alarmsOf(template);
    expect(alarms).toHaveLength(monitoring.alarms.length);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId }]);
    }
  });

  test('passes accountConcurrencyLimit to the account concurrency alarm', () => {
    const { template } = monitored();
    const alarm = alarmsOf(template).find(
      ({ Properties }) => Properties.AlarmName === 'First100DaysSite-AccountConcurrency',
    );
    expect(alarm?.Properties.Threshold).toBe(40);
  });

  test('leaves a conditional CloudFront alarm off the dashboard, and lists it in us-east-1', () => {
    const unknownRegion = JSON.stringify(monitored().template.findResources('AWS::CloudWatch::Dashboard'));
    expect(unknownRegion).not.toContain('CloudFront5xxRate');
    const usEast1 = JSON.stringify(monitored('us-east-1').template.findResources('AWS::CloudWatch::Dashboard'));
    expect(usEast1).toContain('CloudFront5xxRate');
  });

  test("alarms on the configuration set's reputation only when given the configuration set", () => {
    const names = (region?: string, set?: { name: string; dimensionName: string }) =>
      alarmsOf(monitored(region, set).template).map(({ Properties }) => Properties.AlarmName);
    expect(names()).not.toContain('First100DaysSite-ConfigurationSetBounceRate');
    expect(names(undefined, { name: 'product-set', dimensionName: 'ses:configuration-set' })).toEqual(
      expect.arrayContaining([
        'First100DaysSite-ConfigurationSetBounceRate',
        'First100DaysSite-ConfigurationSetComplaintRate',
      ]),
    );
  });
});
