/** Reading the alarms of a synthesized template, for the monitoring constructs' tests. */
import { App, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Alarm, Metric, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';

export interface AlarmResource {
  readonly Properties: Record<string, unknown> & { AlarmName: string; Threshold: number };
  readonly Condition?: string;
}

/** A bare stack named like the product's, with a topic for the alarms' actions. */
export function bareStack(props: { region?: string } = {}): { stack: Stack; alarmAction: IAlarmAction; topic: Topic } {
  const stack = new Stack(new App(), 'First100DaysSite', props.region ? { env: { region: props.region } } : {});
  const topic = new Topic(stack, 'Topic');
  return { stack, alarmAction: new SnsAction(topic), topic };
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
