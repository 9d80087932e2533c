import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  FilterOrPolicy,
  Subscription,
  SubscriptionFilter,
  SubscriptionProtocol,
  type ITopic,
} from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type {
  EventTrigger,
  FunctionTrigger,
  ScheduleExpression,
  ScheduleTrigger,
} from '../../core/api/catalogue/function-entry';
import type { CatalogueFunction } from './catalogue-function';
import { sesEventDimensionName } from './mail';

/** What the triggers other than a route name: given by the stack. */
export interface TriggerSources {
  /** `ofConfigurationSet`: only this configuration set's events. */
  readonly configurationSetName: string;
  /** `from: 'alarmTopic'`: the topic every alarm notifies. */
  readonly alarmTopic?: ITopic;
  /** `from: 'alarmTopic'`: the names of the alarms each `alarms` value stands for. */
  readonly alarmNames?: Readonly<Record<Extract<EventTrigger, { from: 'alarmTopic' }>['alarms'], readonly string[]>>;
}

/** What a trigger made: the rule, or the subscription. */
export type TriggerResource = Rule | Subscription;

/**
 * Wires what invokes `fn`, from its entry's trigger (core/api/catalogue/function-entry.ts), as
 * children of its construct: a schedule's rule, an event pattern's rule or the alarm topic's
 * subscription. A route's trigger is the `Api` construct's (the HTTP API is shared by every
 * route). A new kind of trigger is a case here.
 */
export function addTrigger(fn: CatalogueFunction, sources: TriggerSources): TriggerResource {
  const trigger: FunctionTrigger = fn.entry.trigger;
  switch (trigger.kind) {
    case 'http':
      throw new Error(`${fn.entry.id} is a route: the Api construct wires it`);
    case 'schedule':
      return scheduleRule(fn, trigger);
    case 'event':
      return trigger.from === 'defaultBus' ? eventRule(fn, trigger, sources) : alarmSubscription(fn, trigger, sources);
    case 'queue':
      throw new Error(
        `${fn.entry.id} reads a queue: the construct that owns the queue wires it (infra/constructs/lead-handoff.ts)`,
      );
  }
}

function scheduleOf(expression: ScheduleExpression): Schedule {
  return 'everyMinutes' in expression
    ? Schedule.rate(Duration.minutes(expression.everyMinutes))
    : Schedule.cron(expression.cron);
}

function targetOf(
  fn: CatalogueFunction,
  trigger: { retryAttempts: number; maxEventAgeHours?: number },
): LambdaFunction {
  return new LambdaFunction(fn.function, {
    retryAttempts: trigger.retryAttempts,
    ...(trigger.maxEventAgeHours !== undefined && { maxEventAge: Duration.hours(trigger.maxEventAgeHours) }),
  });
}

function acknowledgeNoQueue(resource: Construct, id: string, reason: string): void {
  Validations.of(resource.node.defaultChild ?? resource).acknowledge({ id, reason });
}

function scheduleRule(fn: CatalogueFunction, trigger: ScheduleTrigger): Rule {
  const rule = new Rule(fn, 'Schedule', {
    description: trigger.description,
    schedule: scheduleOf(trigger.schedule),
    targets: [targetOf(fn, trigger)],
  });
  acknowledgeNoQueue(rule, 'Serverless::Serverless-EventBusDLQ', trigger.undelivered.delivery);
  return rule;
}

function eventRule(
  fn: CatalogueFunction,
  trigger: Extract<EventTrigger, { from: 'defaultBus' }>,
  sources: TriggerSources,
): Rule {
  const rule = new Rule(fn, 'Rule', {
    description: trigger.description,
    eventPattern: {
      source: [...trigger.pattern.source],
      detailType: [...trigger.pattern.detailType],
      account: [Stack.of(fn).account],
      // SES's auto-tag: events of any other configuration set in the account are not ours.
      ...(trigger.ofConfigurationSet && {
        detail: { mail: { tags: { [sesEventDimensionName]: [sources.configurationSetName] } } },
      }),
    },
    targets: [targetOf(fn, trigger)],
  });
  acknowledgeNoQueue(rule, 'Serverless::Serverless-EventBusDLQ', trigger.undelivered.delivery);
  return rule;
}

function alarmSubscription(
  fn: CatalogueFunction,
  trigger: Extract<EventTrigger, { from: 'alarmTopic' }>,
  sources: TriggerSources,
): Subscription {
  const topic = sources.alarmTopic;
  const alarmNames = sources.alarmNames?.[trigger.alarms];
  if (!topic || !alarmNames) throw new Error(`${fn.entry.id} listens to the alarm topic, which was not given`);
  // Only those alarms' notifications, in the states the pattern names, invoke it.
  const subscription = new Subscription(fn, 'AlarmSubscription', {
    topic,
    protocol: SubscriptionProtocol.LAMBDA,
    endpoint: fn.function.functionArn,
    filterPolicyWithMessageBody: {
      AlarmName: FilterOrPolicy.filter(SubscriptionFilter.stringFilter({ allowlist: [...alarmNames] })),
      NewStateValue: FilterOrPolicy.filter(
        SubscriptionFilter.stringFilter({ allowlist: [...trigger.pattern.NewStateValue] }),
      ),
    },
  });
  // SNS may invoke it from this topic (SourceArn) in this account (SourceAccount, Control
  // Tower's CT.LAMBDA.PR.2), as the API's routes may their functions.
  fn.function.addPermission('InvokeFromAlarmTopic', {
    principal: new ServicePrincipal('sns.amazonaws.com'),
    sourceArn: topic.topicArn,
    sourceAccount: Stack.of(fn).account,
  });
  acknowledgeNoQueue(subscription, 'Serverless::Serverless-SNSRedrivePolicy', trigger.undelivered.delivery);
  return subscription;
}
