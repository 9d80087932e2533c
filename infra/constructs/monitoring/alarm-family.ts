import { Stack, type CfnElement } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IAlarm,
  type IAlarmAction,
  type IMetric,
  type TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { runbookDescription, runbookDocPath, type AlarmDescription, type AlarmSeverity } from './runbook';
import { logicalIdBeside } from './stable-logical-id';

/** Where each severity notifies: pages on ALARM and OK, tickets on ALARM only. */
export interface AlarmActions {
  /** The pages topic (alarmEmail, pageEndpoint). */
  readonly page: IAlarmAction;
  /** The tickets topic (ticketEmail). */
  readonly ticket: IAlarmAction;
}

/** What every family of alarms needs: where to notify, and how to name its alarms. */
export interface AlarmFamilyProps {
  /** Where pages and tickets go (AlarmTopics). */
  readonly alarmActions: AlarmActions;
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
  /**
   * False for an alarm that only feeds a composite alarm (which notifies for it).
   *
   * @default true
   */
  readonly notifies?: boolean;
}

/**
 * A group of alarms on one part of the product. A page notifies the pages topic on ALARM and on
 * OK (the person paged learns when it is over); a ticket notifies the tickets topic on ALARM only.
 */
export abstract class AlarmFamily extends Construct {
  /** This family's alarms, in the order the dashboard lists them. */
  public readonly alarms: Alarm[] = [];

  protected readonly alarmActions: AlarmActions;
  private readonly alarmNamePrefix: string;
  private readonly runbookBaseUrl: string;

  protected constructor(scope: Construct, id: string, props: AlarmFamilyProps) {
    super(scope, id);
    this.alarmActions = props.alarmActions;
    this.alarmNamePrefix = props.alarmNamePrefix ?? Stack.of(this).stackName;
    this.runbookBaseUrl = props.runbookBaseUrl ?? runbookDocPath;
  }

  protected addAlarm(id: string, spec: AlarmSpec): Alarm {
    const evaluationPeriods = spec.evaluationPeriods ?? 1;
    const alarm = new Alarm(this, id, {
      alarmName: this.alarmNameOf(id),
      alarmDescription: runbookDescription(spec.description, this.runbookBaseUrl),
      metric: spec.metric,
      threshold: spec.threshold,
      comparisonOperator: spec.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods,
      datapointsToAlarm: spec.datapointsToAlarm ?? evaluationPeriods,
      treatMissingData: spec.treatMissingData,
    });
    if (spec.notifies ?? true) this.notify(alarm, spec.description.entry.severity);
    this.alarms.push(alarm);
    return alarm;
  }

  /** Pages on ALARM and OK; tickets on ALARM only. */
  protected notify(
    alarm: IAlarm & { addAlarmAction(...a: IAlarmAction[]): void; addOkAction(...a: IAlarmAction[]): void },
    severity: AlarmSeverity,
  ): void {
    if (severity === 'page') {
      alarm.addAlarmAction(this.alarmActions.page);
      alarm.addOkAction(this.alarmActions.page);
    } else {
      alarm.addAlarmAction(this.alarmActions.ticket);
    }
  }

  /** `<prefix>-<id>`: every alarm's name starts with the stack's name (the topics' policies rely on it). */
  protected alarmNameOf(id: string): string {
    return `${this.alarmNamePrefix}-${id}`;
  }

  protected get runbookUrl(): string {
    return this.runbookBaseUrl;
  }

  /** Gives `element` (at `pathBelowFamily`) the logical id it would have beside this family. */
  protected keepLogicalId(element: CfnElement, pathBelowFamily: readonly string[]): void {
    element.overrideLogicalId(logicalIdBeside(this, pathBelowFamily));
  }
}
