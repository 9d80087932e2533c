import { Duration } from 'aws-cdk-lib';
import { Metric, TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { alarmRunbook, describeAlarm } from './runbook';

/**
 * Where the product pauses its own sending: four fifths of the rates at which SES reviews an
 * account (5% bounces, 0.1% complaints), so the pause comes before SES's review and well before
 * SES pauses the whole account (at about twice those).
 */
export const sendingPauseThresholds = { bounceRate: 0.04, complaintRate: 0.0008 } as const;

/**
 * The dimension SES publishes a configuration set's reputation metrics by (namespace `AWS/SES`),
 * once the set has reputation metrics on (Mail: `ReputationOptions.ReputationMetricsEnabled`).
 */
export const configurationSetReputationDimension = 'ses:configuration-set';

/** A reputation metric (`Reputation.BounceRate`, `Reputation.ComplaintRate`) of one configuration set. */
export function configurationSetReputation(metricName: string, configurationSetName: string, label?: string): Metric {
  return new Metric({
    namespace: 'AWS/SES',
    metricName,
    dimensionsMap: { [configurationSetReputationDimension]: configurationSetName },
    statistic: 'Maximum',
    period: Duration.hours(1),
    label,
  });
}

export interface ConfigurationSetAlarmsProps extends AlarmFamilyProps {
  /** The product's configuration set, with reputation metrics on. */
  readonly configurationSetName: string;
}

/**
 * The product's own configuration set's bounce and complaint rates: either alarm pauses sending
 * for the set (SendingPause) besides paging the operator.
 */
export class ConfigurationSetAlarms extends AlarmFamily {
  public readonly bounceRateAlarm: Alarm;
  public readonly complaintRateAlarm: Alarm;

  constructor(scope: Construct, id: string, props: ConfigurationSetAlarmsProps) {
    super(scope, id, props);
    const { configurationSetName } = props;
    // As the account's: silence does not make a bad rate good, so missing data keeps the state.
    this.bounceRateAlarm = this.addAlarm('ConfigurationSetBounceRate', {
      metric: configurationSetReputation('Reputation.BounceRate', configurationSetName),
      threshold: sendingPauseThresholds.bounceRate,
      treatMissingData: TreatMissingData.IGNORE,
      description: describeAlarm(
        "The configuration set's bounce rate is 4% or more: sending through it is paused, before SES reviews the account at about 5%.",
        alarmRunbook.ConfigurationSetBounceRate,
      ),
    });
    this.complaintRateAlarm = this.addAlarm('ConfigurationSetComplaintRate', {
      metric: configurationSetReputation('Reputation.ComplaintRate', configurationSetName),
      threshold: sendingPauseThresholds.complaintRate,
      treatMissingData: TreatMissingData.IGNORE,
      description: describeAlarm(
        "The configuration set's complaint rate is 0.08% or more: sending through it is paused, before SES reviews the account at about 0.1%.",
        alarmRunbook.ConfigurationSetComplaintRate,
      ),
    });
  }
}
