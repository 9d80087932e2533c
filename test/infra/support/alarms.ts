/** Reading the alarms of a synthesized template, for the monitoring constructs' tests. */
import type { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Alarm, Metric } from 'aws-cdk-lib/aws-cloudwatch';

export interface AlarmResource {
  readonly Properties: Record<string, unknown> & { AlarmName: string; Threshold: number };
  readonly Condition?: string;
}

export function alarmsOf(template: Template): AlarmResource[] {
  return Object.values(template.findResources('AWS::CloudWatch::Alarm')) as AlarmResource[];
}

/** The one alarm with this full name. */
export function alarmNamed(template: Template, name: string): AlarmResource {
  const found = alarmsOf(template).filter((alarm) => alarm.Properties.AlarmName === name);
  if (found.length !== 1) throw new Error(`Expected one alarm named ${name}, found ${found.length}`);
  return found[0];
}

/** An alarm to put on a dashboard, outside any family. */
export function standaloneAlarm(stack: Stack, id: string): Alarm {
  return new Alarm(stack, id, {
    metric: new Metric({ namespace: 'Test', metricName: id }),
    threshold: 1,
    evaluationPeriods: 1,
  });
}
