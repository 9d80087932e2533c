import { Stack, type CfnElement } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IAlarmAction,
  type IMetric,
  type TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { runbookDescription, runbookDocPath, type AlarmDescription } from './runbook';
import { logicalIdBeside } from './stable-logical-id';

/** What every family of alarms needs: where to notify, and how to name its alarms. */
export interface AlarmFamilyProps {
  /** Every alarm's ALARM and OK action: the alarm topic (AlarmTopic.alarmAction). */
  readonly alarmAction: IAlarmAction;
  /**
   * Alarm names are `<prefix>-<alarm id>`.
   *
   * @default - the stack's name (`First100DaysSite`)
   */
  readonly alarmNamePrefix?: string;
  /**
   * Each alarm's description ends with a link to its runbook section: this page, then `#anchor`
   * (runbookBaseUrl in runbook.ts).
   *
   * @default `docs/operate.md`, the page's path in the repository
   */
  readonly runbookBaseUrl?: string;
}

export interface AlarmSpec {
  readonly metric: IMetric;
  readonly threshold: number;
  /** What is happening and its runbook entry (describeAlarm): written out with severity and link. */
  readonly description: AlarmDescription;
  readonly treatMissingData: TreatMissingData;
  /** @default GREATER_THAN_OR_EQUAL_TO_THRESHOLD */
  readonly comparisonOperator?: ComparisonOperator;
  /** @default 1 */
  readonly evaluationPeriods?: number;
  /** @default evaluationPeriods */
  readonly datapointsToAlarm?: number;
}

/**
 * A group of alarms on one part of the product. Each alarm notifies on ALARM and on OK, and keeps
 * the logical id it had before the monitoring was split into families (stable-logical-id.ts).
 */
export abstract class AlarmFamily extends Construct {
  /** This family's alarms, in the order the dashboard lists them. */
  public readonly alarms: Alarm[] = [];

  private readonly alarmAction: IAlarmAction;
  private readonly alarmNamePrefix: string;
  private readonly runbookBaseUrl: string;

  protected constructor(scope: Construct, id: string, props: AlarmFamilyProps) {
    super(scope, id);
    this.alarmAction = props.alarmAction;
    this.alarmNamePrefix = props.alarmNamePrefix ?? Stack.of(this).stackName;
    this.runbookBaseUrl = props.runbookBaseUrl ?? runbookDocPath;
  }

  protected addAlarm(id: string, spec: AlarmSpec): Alarm {
    const evaluationPeriods = spec.evaluationPeriods ?? 1;
    const alarm = new Alarm(this, id, {
      alarmName: `${this.alarmNamePrefix}-${id}`,
      alarmDescription: runbookDescription(spec.description, this.runbookBaseUrl),
      metric: spec.metric,
      threshold: spec.threshold,
      comparisonOperator: spec.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods,
      datapointsToAlarm: spec.datapointsToAlarm ?? evaluationPeriods,
      treatMissingData: spec.treatMissingData,
    });
    alarm.addAlarmAction(this.alarmAction);
    alarm.addOkAction(this.alarmAction);
    this.keepLogicalId(alarm.node.defaultChild as CfnElement, [id, 'Resource']);
    this.alarms.push(alarm);
    return alarm;
  }

  /** Gives `element` (at `pathBelowFamily`) the logical id it would have beside this family. */
  protected keepLogicalId(element: CfnElement, pathBelowFamily: readonly string[]): void {
    element.overrideLogicalId(logicalIdBeside(this, pathBelowFamily));
  }
}
