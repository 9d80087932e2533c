import { Duration } from 'aws-cdk-lib';
import { TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { alarmRunbook, describeAlarm } from './runbook';

export interface LeadHandoffAlarmsProps extends AlarmFamilyProps {
  /** The hand-off's dead-letter queue. */
  readonly deadLetterQueue: IQueue;
}

/**
 * The hand-off's one alarm: any message in its dead-letter queue, a lead the author's list lacks
 * and nothing will retry. A ticket, not a page (runbook.ts, LeadHandoffDeadLetters).
 */
export class LeadHandoffAlarms extends AlarmFamily {
  public readonly deadLettersAlarm: Alarm;

  constructor(scope: Construct, id: string, props: LeadHandoffAlarmsProps) {
    super(scope, id, props);
    // The queue's own gauge (published every minute while the queue is active): Maximum, so one message is enough.
    this.deadLettersAlarm = this.addAlarm('LeadHandoffDeadLetters', {
      metric: props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        "A lead could not be handed to the author's mail provider and waits in the dead-letter queue: the author's list lacks it.",
        alarmRunbook.LeadHandoffDeadLetters,
      ),
    });
  }
}
