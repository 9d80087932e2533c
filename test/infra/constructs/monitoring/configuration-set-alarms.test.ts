import { Template } from 'aws-cdk-lib/assertions';
import { ConfigurationSetAlarms } from '../../../../infra/constructs/monitoring/configuration-set-alarms';
import { alarmNamed } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

function setAlarmsTemplate() {
  const { stack, alarmAction } = alarmStack();
  new ConfigurationSetAlarms(stack, 'ConfigurationSetAlarms', { alarmAction, configurationSetName: 'product-set' });
  return Template.fromStack(stack);
}

describe("the configuration set's reputation alarms", () => {
  test("fire at a 4% bounce rate of the configuration set's own reputation metric, keeping their state without data", () => {
    expect(alarmNamed(setAlarmsTemplate(), 'First100DaysSite-ConfigurationSetBounceRate').Properties).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.BounceRate',
      Dimensions: [{ Name: 'ses:configuration-set', Value: 'product-set' }],
      Statistic: 'Maximum',
      Period: 3600,
      Threshold: 0.04,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'ignore',
    });
  });

  test("fire at a 0.08% complaint rate of the configuration set's own reputation metric", () => {
    expect(alarmNamed(setAlarmsTemplate(), 'First100DaysSite-ConfigurationSetComplaintRate').Properties).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.ComplaintRate',
      Dimensions: [{ Name: 'ses:configuration-set', Value: 'product-set' }],
      Threshold: 0.0008,
      TreatMissingData: 'ignore',
    });
  });

  test('notify the alarm topic on ALARM, which reaches the pause function', () => {
    const alarm = alarmNamed(setAlarmsTemplate(), 'First100DaysSite-ConfigurationSetBounceRate');
    expect(alarm.Properties.AlarmActions).toEqual([{ Ref: expect.stringMatching(/^Topic/) }]);
  });
});
