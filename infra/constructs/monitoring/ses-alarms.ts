import { Duration } from 'aws-cdk-lib';
import { TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { sesMetric } from './metrics';
import { alarmRunbook, describeAlarm } from './runbook';

/** SES reviews an account at about these rates (and pauses it at about twice them): docs/operate.md. */
export const sesReputationThresholds = { bounceRate: 0.05, complaintRate: 0.001 } as const;

export type SesAlarmsProps = AlarmFamilyProps;

/** The SES account's reputation: bounce and complaint rates, before SES reviews or pauses it. */
export class SesAlarms extends AlarmFamily {
  public readonly bounceRateAlarm: Alarm;
  public readonly complaintRateAlarm: Alarm;

  constructor(scope: Construct, id: string, props: SesAlarmsProps) {
    super(scope, id, props);
    // SES updates the rates as it learns of bounces and complaints; silence does not make a bad
    // rate good, so missing data keeps the alarm where it is.
    this.bounceRateAlarm = this.addAlarm('SesBounceRate', {
      metric: sesMetric('Reputation.BounceRate', 'Maximum', Duration.hours(1)),
      threshold: sesReputationThresholds.bounceRate,
      treatMissingData: TreatMissingData.IGNORE,
      description: describeAlarm(
        "The SES account's bounce rate is 5% or more: SES puts the account under review at about that and may pause sending.",
        alarmRunbook.SesBounceRate,
      ),
    });
    this.complaintRateAlarm = this.addAlarm('SesComplaintRate', {
      metric: sesMetric('Reputation.ComplaintRate', 'Maximum', Duration.hours(1)),
      threshold: sesReputationThresholds.complaintRate,
      treatMissingData: TreatMissingData.IGNORE,
      description: describeAlarm(
        "The SES account's complaint rate is 0.1% or more: SES puts the account under review at about that and may pause sending.",
        alarmRunbook.SesComplaintRate,
      ),
    });
  }
}
