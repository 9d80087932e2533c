import { Template } from 'aws-cdk-lib/assertions';
import { AccountConcurrencyAlarm } from '../../../../infra/constructs/monitoring/account-concurrency-alarm';
import { alarmNamed } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

describe('the account concurrency alarm', () => {
  test("fires at 800 concurrent executions across the account by default: 80% of Lambda's default quota of 1000", () => {
    const { stack, alarmAction } = alarmStack();
    new AccountConcurrencyAlarm(stack, 'AccountConcurrencyAlarm', { alarmAction });
    const alarm = alarmNamed(Template.fromStack(stack), 'First100DaysSite-AccountConcurrency');
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'ConcurrentExecutions',
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 800,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(alarm.Properties.Dimensions).toBeUndefined();
  });

  test('fires at 80% of accountConcurrencyLimit, and says the quota it assumed', () => {
    const { stack, alarmAction } = alarmStack();
    new AccountConcurrencyAlarm(stack, 'AccountConcurrencyAlarm', { alarmAction, accountConcurrencyLimit: 10 });
    const alarm = alarmNamed(Template.fromStack(stack), 'First100DaysSite-AccountConcurrency');
    expect(alarm.Properties.Threshold).toBe(8);
    expect(alarm.Properties.AlarmDescription).toContain('80% of an assumed quota of 10;');
  });
});
