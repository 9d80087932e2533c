import { Template } from 'aws-cdk-lib/assertions';
import { SesAlarms } from '../../../../infra/constructs/monitoring/ses-alarms';
import { alarmNamed } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

function sesTemplate() {
  const { stack, alarmAction } = alarmStack();
  new SesAlarms(stack, 'SesAlarms', { alarmAction });
  return Template.fromStack(stack);
}

describe('the SES alarms', () => {
  test("fire at a 5% bounce rate, SES's review level, keeping their state without data", () => {
    expect(alarmNamed(sesTemplate(), 'First100DaysSite-SesBounceRate').Properties).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.BounceRate',
      Statistic: 'Maximum',
      Period: 3600,
      Threshold: 0.05,
      TreatMissingData: 'ignore',
    });
  });

  test("fire at a 0.1% complaint rate, SES's review level", () => {
    expect(alarmNamed(sesTemplate(), 'First100DaysSite-SesComplaintRate').Properties).toMatchObject({
      MetricName: 'Reputation.ComplaintRate',
      Threshold: 0.001,
      TreatMissingData: 'ignore',
    });
  });
});
