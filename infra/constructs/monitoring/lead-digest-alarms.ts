import { Duration } from 'aws-cdk-lib';
import { TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { alarmRunbook, describeAlarm } from './runbook';

export interface LeadDigestAlarmsProps extends AlarmFamilyProps {
  readonly function: IFunction;
}

/**
 * The weekly digest's one alarm: an invocation that failed after Lambda's two retries. A ticket,
 * not a page: the leads are safe in the table, and the author can export them (runbook.ts,
 * LeadDigestErrors).
 */
export class LeadDigestAlarms extends AlarmFamily {
  public readonly errorsAlarm: Alarm;

  constructor(scope: Construct, id: string, props: LeadDigestAlarmsProps) {
    super(scope, id, props);
    // A day's period: the digest runs once a week, so a five-minute period would be empty all week.
    this.errorsAlarm = this.addAlarm('LeadDigestErrors', {
      metric: props.function.metricErrors({ period: Duration.days(1), statistic: 'Sum' }),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        "The weekly digest of new leads failed (after Lambda's two retries): the author did not get this week's e-mail.",
        alarmRunbook.LeadDigestErrors,
      ),
    });
  }
}
