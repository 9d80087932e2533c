import { Duration } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { ApiAlarms } from '../../../../infra/constructs/monitoring/api-alarms';
import { alarmNamed } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

function apiAlarms() {
  const { stack, alarmAction } = alarmStack();
  const httpApi = new HttpApi(stack, 'Api', { createDefaultStage: false });
  const stage = new HttpStage(stack, 'Stage', { httpApi, stageName: '$default' });
  new ApiAlarms(stack, 'ApiAlarms', {
    alarmAction,
    stage,
    routes: [{ route: '/api/send-cheat-sheet', method: 'POST', timeout: Duration.seconds(15) }],
  });
  return Template.fromStack(stack);
}

describe('the API alarms', () => {
  test("fire on 3 or more 5xx replies of the API's stage in five minutes", () => {
    const alarm = alarmNamed(apiAlarms(), 'First100DaysSite-Api5xx');
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 3,
      TreatMissingData: 'notBreaching',
    });
  });

  test("count no 4xx: each is a visitor's own request refused, so no stranger can page with them", () => {
    const alarms = Object.values(apiAlarms().findResources('AWS::CloudWatch::Alarm')) as {
      Properties: { MetricName?: string };
    }[];
    expect(alarms.map((alarm) => alarm.Properties.MetricName)).not.toContain('4xx');
    expect(alarms.length).toBeGreaterThan(0);
  });

  test("fire when a route's p99 latency reaches half its function's timeout in 2 of 3 five-minute periods", () => {
    const alarm = alarmNamed(apiAlarms(), 'First100DaysSite-LatencyApiSendCheatSheet');
    expect(alarm.Properties).toMatchObject({
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      Period: 300,
      Threshold: 7500,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    });
    expect(alarm.Properties.Dimensions).toEqual(
      expect.arrayContaining([
        { Name: 'Method', Value: 'POST' },
        { Name: 'Resource', Value: '/api/send-cheat-sheet' },
        { Name: 'Stage', Value: '$default' },
      ]),
    );
  });
});
