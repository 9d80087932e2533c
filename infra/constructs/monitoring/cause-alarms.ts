import { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric, TreatMissingData, type Alarm, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { functionServices, outcomeMetrics } from '../../../core/observability/product-metrics';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { productMetric } from './metrics';
import { alarmRunbook, describeAlarm } from './runbook';

/** SES reviews an account at about these rates (and may pause it at about twice them). */
export const sesReviewRates = { bounceRate: 0.05, complaintRate: 0.001 } as const;

/**
 * Where the product pauses its own sending: four fifths of SES's review rates, so the pause comes
 * before SES reviews the account and well before SES pauses it.
 */
export const sendingPauseThresholds = { bounceRate: 0.04, complaintRate: 0.0008 } as const;

/**
 * The fewest sends in the window before the rates are judged at all. At SES's review rate of 5%,
 * 20 sends make one bounce 5%: a rate over so few sends says nothing of the sender, and a stranger
 * with a handful of made-up mailboxes could move it. Ten times that, 200 sends, makes the pause
 * take 8 bounced addresses (4%) and SES's review rate 10; and a stranger who brings the volume
 * too must have 200 cheat sheets sent in 24 hours, past the per-client and per-network caps
 * (docs/abuse.md gives the arithmetic).
 */
export const reputationMinimumSends = 10 * Math.round(1 / sesReviewRates.bounceRate);

/** The window the rates are judged over: the same 24 hours the daily send budget counts. */
export const reputationWindow = Duration.days(1);

/** The share of the daily send budget at which a ticket is opened, while sends still go out. */
export const defaultBudgetWarningRatio = 0.8;

/** The dimension SES publishes a configuration set's event counts by (Mail's CloudWatch destination). */
export interface ConfigurationSetEvents {
  readonly name: string;
  readonly dimensionName: string;
}

/** One of the configuration set's event counts (`Send`, `Bounce`, `Complaint`), summed. */
export function configurationSetEvent(event: string, set: ConfigurationSetEvents, period: Duration): Metric {
  return new Metric({
    namespace: 'AWS/SES',
    metricName: event,
    dimensionsMap: { [set.dimensionName]: set.name },
    statistic: 'Sum',
    period,
  });
}

export interface CauseAlarmsProps extends AlarmFamilyProps {
  /** The product's configuration set: its bounce and complaint events. */
  readonly configurationSet: ConfigurationSetEvents;
  /** The product's daily send budget: the warning reads the same value the send function enforces. */
  readonly dailySendBudget: number;
  /** @default defaultBudgetWarningRatio (0.8) */
  readonly budgetWarningRatio?: number;
  /**
   * The dead-letter queues: work that failed after its retries.
   *
   * @default - none, and no DeadLetters alarms
   */
  readonly deadLetterQueues?: readonly IQueue[];
  /**
   * The send queue: the age of its oldest message is the oldest unsent request's wait (SendBacklog).
   *
   * @default - none, and no SendBacklog alarm
   */
  readonly sendQueue?: IQueue;
}

/** The delivery objective's bound on a request's wait for its e-mail: the backlog's ticket past it. */
export const sendBacklogThresholdSeconds = 15 * 60;

/**
 * The causes no objective can see: the sender's reputation (which pauses sending), the daily send
 * budget running out, and work left in a dead-letter queue.
 */
export class CauseAlarms extends AlarmFamily {
  /** Its ALARM pauses sending (SendingPause). */
  public readonly senderReputationAlarm: Alarm;
  public readonly sendBudgetAlarm: Alarm;
  /** One an owner of a dead-letter queue; none without queues. */
  public readonly deadLettersAlarms: readonly Alarm[];
  /** A request accepted for sending waited the delivery objective's 15 minutes in the send queue. */
  public readonly sendBacklogAlarm?: Alarm;

  constructor(scope: Construct, id: string, props: CauseAlarmsProps) {
    super(scope, id, props);
    this.senderReputationAlarm = this.addAlarm('SenderReputation', {
      metric: reputationMetric(props.configurationSet),
      threshold: 1,
      // No sends, no bounces: a quiet day is a good one.
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        `In the last 24 hours, with ${reputationMinimumSends} or more cheat sheets sent, ${sendingPauseThresholds.bounceRate * 100}% or more bounced or ${sendingPauseThresholds.complaintRate * 100}% or more drew a complaint: sending through the configuration set is paused, before SES reviews the account at ${sesReviewRates.bounceRate * 100}% and ${sesReviewRates.complaintRate * 100}%.`,
        alarmRunbook.SenderReputation,
      ),
    });

    const warningAt = Math.ceil(props.dailySendBudget * (props.budgetWarningRatio ?? defaultBudgetWarningRatio));
    this.sendBudgetAlarm = this.addAlarm('SendBudgetRunningOut', {
      // A one-day period with the alarm's sliding window: the sends of the last 24 hours, the
      // window the budget counts.
      metric: productMetric(outcomeMetrics.cheatSheetSent, functionServices.sendCheatSheet, Duration.days(1)),
      threshold: warningAt,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        `${warningAt} or more cheat sheets sent in 24 hours: the daily send budget of ${props.dailySendBudget} is nearly spent, then readers are refused (503).`,
        alarmRunbook.SendBudgetRunningOut,
      ),
    });

    // One ticket a queue, named after the construct that owns it (`DeadLetters-LeadHandoff`): the
    // subject says whose work failed, and the runbook's step for that queue is under that name.
    this.deadLettersAlarms = (props.deadLetterQueues ?? []).map((queue) => {
      const owner = deadLetterQueueOwner(queue);
      return this.addAlarm(`DeadLetters-${owner}`, {
        metric: queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: Duration.minutes(5) }),
        threshold: 1,
        // SQS reports every 5 minutes while the queue exists; no data is no message.
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: describeAlarm(
          `The dead-letter queue of ${owner} holds a message: work that failed after its retries, which nothing redoes by itself.`,
          alarmRunbook.DeadLetters,
          { hurt: `the dead-letter queue of ${owner}`, anchor: `deadletters-${owner.toLowerCase()}` },
        ),
      });
    });

    if (props.sendQueue) {
      this.sendBacklogAlarm = this.addAlarm('SendBacklog', {
        // SQS's own gauge of the oldest unsent request's wait: a queued send leaves the queue once SES took it.
        metric: props.sendQueue.metricApproximateAgeOfOldestMessage({
          statistic: 'Maximum',
          period: Duration.minutes(5),
        }),
        threshold: sendBacklogThresholdSeconds,
        // SQS reports every 5 minutes while the queue exists; no data is no backlog.
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: describeAlarm(
          `A request accepted for sending has waited ${sendBacklogThresholdSeconds / 60} minutes or more in the send queue: past the delivery objective, SES's rate (or SES itself) is behind the readers.`,
          alarmRunbook.SendBacklog,
        ),
      });
    }
  }
}

/** The id of the construct a dead-letter queue belongs to (`FailedEvents`, `LeadHandoff`). */
export function deadLetterQueueOwner(queue: IQueue): string {
  return queue.node.scope?.node.id ?? queue.node.id;
}

/**
 * The larger of the bounce rate over the pause's and the complaint rate over the pause's, over
 * the last 24 hours, and 0 until 200 cheat sheets were sent in them: 1 or more pauses sending.
 * Each address counts once: a bounce or complaint suppresses it (the SES events function) and the
 * send refuses a suppressed address before SES is called, so it is never sent to, nor counted,
 * again.
 */
export function reputationMetric(set: ConfigurationSetEvents): IMetric {
  const period = reputationWindow;
  const sent = 'FILL(sent, 0)';
  return new MathExpression({
    expression: `IF(${sent} >= ${reputationMinimumSends}, MAX([FILL(bounces, 0) / ${sent} / ${sendingPauseThresholds.bounceRate}, FILL(complaints, 0) / ${sent} / ${sendingPauseThresholds.complaintRate}]), 0)`,
    usingMetrics: {
      sent: productMetric(outcomeMetrics.cheatSheetSent, functionServices.sendCheatSheet, period),
      bounces: configurationSetEvent('Bounce', set, period),
      complaints: configurationSetEvent('Complaint', set, period),
    },
    period,
    label: 'Bounce or complaint rate against the pause (1 = paused)',
  });
}
