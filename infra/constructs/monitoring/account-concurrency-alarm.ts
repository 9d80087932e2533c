import { TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { accountConcurrency } from './metrics';
import { alarmRunbook, describeAlarm } from './runbook';

/**
 * Lambda's default concurrency quota per account and region. New accounts may start far lower
 * (Service Quotas shows yours): pass `accountConcurrencyLimit` then; the throttle alarms fire
 * either way, since a function at the limit is throttled.
 */
export const defaultAccountConcurrencyLimit = 1000;

/** The share of the quota at which the alarm fires: time to raise the quota before every function is throttled. */
export const accountConcurrencyAlarmRatio = 0.8;

export interface AccountConcurrencyAlarmProps extends AlarmFamilyProps {
  /**
   * The account's Lambda concurrency quota in this region (Service Quotas, "Concurrent executions").
   * The alarm fires at 80% of it.
   *
   * @default 1000 (Lambda's default quota; threshold 800)
   */
  readonly accountConcurrencyLimit?: number;
}

/**
 * Account-wide, since the functions draw from the account's unreserved pool, which other
 * workloads share: the API's throttle (10 requests a second) keeps these functions far below it.
 */
export class AccountConcurrencyAlarm extends AlarmFamily {
  public readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: AccountConcurrencyAlarmProps) {
    super(scope, id, props);
    const limit = props.accountConcurrencyLimit ?? defaultAccountConcurrencyLimit;
    const threshold = Math.floor(limit * accountConcurrencyAlarmRatio);
    this.alarm = this.addAlarm('AccountConcurrency', {
      metric: accountConcurrency(),
      threshold,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        `Lambda functions in this account and region run ${threshold} or more at once: 80% of an assumed quota of ${limit}; at the quota every function is throttled.`,
        alarmRunbook.AccountConcurrency,
      ),
    });
  }
}
