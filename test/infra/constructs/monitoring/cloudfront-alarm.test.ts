import { Template } from 'aws-cdk-lib/assertions';
import { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { CloudFrontAlarm } from '../../../../infra/constructs/monitoring/cloudfront-alarm';
import { alarmNamed, alarmsOf } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

function cloudFrontTemplate(region?: string) {
  const { stack, alarmAction } = alarmStack({ region });
  const distribution = new Distribution(stack, 'Distribution', {
    defaultBehavior: { origin: new HttpOrigin('example.com') },
  });
  const family = new CloudFrontAlarm(stack, 'CloudFrontAlarm', { alarmAction, distribution });
  return { template: Template.fromStack(stack), family };
}

describe('the CloudFront alarm', () => {
  test('fires at a 5% 5xx rate in 2 of 3 five-minute periods', () => {
    const alarm = alarmNamed(cloudFrontTemplate('us-east-1').template, 'First100DaysSite-CloudFront5xxRate');
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/CloudFront',
      MetricName: '5xxErrorRate',
      Statistic: 'Average',
      Threshold: 5,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    });
    expect(alarm.Condition).toBeUndefined();
  });

  test('exists only in us-east-1 when the region is unknown at synth', () => {
    const { template, family } = cloudFrontTemplate();
    const alarm = alarmNamed(template, 'First100DaysSite-CloudFront5xxRate');
    expect(family.conditional).toBe(true);
    expect((template.toJSON() as { Conditions: Record<string, unknown> }).Conditions[alarm.Condition!]).toEqual({
      'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'],
    });
  });

  test('is absent in another known region, where CloudFront publishes no metric', () => {
    expect(alarmsOf(cloudFrontTemplate('eu-west-1').template)).toEqual([]);
  });
});
