import { Template } from 'aws-cdk-lib/assertions';
import { DeliveryAlarms } from '../../../../infra/constructs/monitoring/delivery-alarms';
import { alarmNamed } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

const template = (() => {
  const { stack, alarmAction } = alarmStack();
  new DeliveryAlarms(stack, 'DeliveryAlarms', { alarmAction });
  return Template.fromStack(stack);
})();

describe('the delivery alarms', () => {
  test("fire at one request unsent 15 minutes after saving, on the unsent check's count over its own period", () => {
    expect(alarmNamed(template, 'First100DaysSite-UnsentRequests').Properties).toMatchObject({
      Namespace: 'First100DaysSite',
      MetricName: 'UnsentRequests',
      Dimensions: [{ Name: 'service', Value: 'unsent-check' }],
      Statistic: 'Maximum',
      Period: 900,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  test.each(['SendNotRecorded', 'SendOutcomeUnknown'])(
    'fire at one %s of the send function in five minutes, and say what to do first',
    (metric) => {
      const alarm = alarmNamed(template, `First100DaysSite-${metric}`).Properties;
      expect(alarm).toMatchObject({
        MetricName: metric,
        Dimensions: [{ Name: 'service', Value: 'send-cheat-sheet' }],
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
      });
      expect(alarm.AlarmDescription).toMatch(/First: /);
    },
  );
});
