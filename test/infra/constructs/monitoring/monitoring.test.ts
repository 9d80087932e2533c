/**
 * The alarm set of a stage as synthesized: each alarm named after what it watches, with what is
 * hurt, its severity and runbook link; pages and tickets on two topics, tickets to alarmEmail when
 * no ticketEmail is given; OK notifications only for pages; nothing a visitor's input (a 4xx) can fire.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { createTestApp } from '../../support/synth';

const account = '111111111111';
const context = {
  senderDomain: 'example.com',
  alarmEmail: 'ops@example.com',
  pageEndpoint: 'https://events.example.net/integration/key/enqueue',
  ticketEmail: 'tickets@example.com',
  authorEmail: 'author@example.com',
};

interface Resource {
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
}

function stageOf(region: string) {
  const { stack, edgeMonitoringStack } = createTestApp({ env: { account, region }, context });
  const templates = [stack, ...(edgeMonitoringStack ? [edgeMonitoringStack] : [])].map((s) =>
    Template.fromStack(s).toJSON(),
  );
  const resources = templates.flatMap((template) => Object.entries(template.Resources as Record<string, Resource>));
  const alarms = resources.filter(
    ([, r]) => r.Type === 'AWS::CloudWatch::Alarm' || r.Type === 'AWS::CloudWatch::CompositeAlarm',
  );
  return { stack, resources, alarms, template: Template.fromStack(stack) };
}

const home = stageOf('us-east-1');
const away = stageOf('eu-west-1');

const refs = (value: unknown) => JSON.stringify(value ?? []);

describe("a stage's alarms", () => {
  test('each names what is hurt first, then its severity, and links its runbook section', () => {
    for (const [id, alarm] of [...home.alarms, ...away.alarms]) {
      const description = String(alarm.Properties.AlarmDescription);
      expect([id, /^Hurt: [^.]+\. Severity: (page|ticket)\. /.test(description)]).toEqual([id, true]);
      expect([id, /Runbook: docs\/operate\.md#[a-z-]+$/.test(description)]).toEqual([id, true]);
    }
  });

  test("each objective's page and ticket name the objective in the alarm's name (the notification's subject) and first words", () => {
    const named = home.alarms
      .map(([, alarm]) => [String(alarm.Properties.AlarmName), String(alarm.Properties.AlarmDescription)])
      .filter(([name]) => /-Slo(FastBurn|SlowBurn)-/.test(name));
    expect(named.map(([name]) => name).sort()).toEqual(
      ['Availability', 'Delivery', 'Latency']
        .flatMap((objective) => [
          `First100DaysSite-SloFastBurn-${objective}`,
          `First100DaysSite-SloSlowBurn-${objective}`,
        ])
        .sort(),
    );
    for (const [name, description] of named) {
      const objective = name.split('-').pop()!.toLowerCase();
      expect([name, description]).toEqual([
        name,
        expect.stringMatching(new RegExp(`^Hurt: the ${objective} objective\\. `)),
      ]);
      expect([name, description]).toEqual([
        name,
        expect.stringMatching(new RegExp(`#slo(fast|slow)burn-${objective}$`)),
      ]);
    }
  });

  test('each dead-letter queue has its own ticket, named after the work that failed', () => {
    const names = home.alarms
      .map(([, alarm]) => String(alarm.Properties.AlarmName))
      .filter((name) => name.includes('-DeadLetters'));
    expect(names).toEqual(['First100DaysSite-DeadLetters-FailedEvents']);
    const [, failedEvents] = home.alarms.find(([, alarm]) => alarm.Properties.AlarmName === names[0])!;
    expect(failedEvents.Properties.AlarmDescription).toMatch(/^Hurt: the dead-letter queue of FailedEvents\. /);
  });

  test('go to two topics: pages to alarmEmail and pageEndpoint, tickets to ticketEmail', () => {
    const subscriptions = home.resources
      .filter(([, r]) => r.Type === 'AWS::SNS::Subscription')
      .map(([, r]) => r.Properties);
    const topics = home.resources.filter(([, r]) => r.Type === 'AWS::SNS::Topic');
    expect(topics).toHaveLength(2);
    const pages = home.stack.getLogicalId(home.stack.monitoring.pagesTopic.node.defaultChild as never);
    const tickets = home.stack.getLogicalId(home.stack.monitoring.ticketsTopic.node.defaultChild as never);
    const endpointsOf = (topic: string) =>
      subscriptions
        .filter(({ TopicArn }) => refs(TopicArn) === refs({ Ref: topic }))
        .map(({ Protocol, Endpoint }) => `${String(Protocol)} ${String(Endpoint)}`)
        .filter((line) => !line.startsWith('lambda'));
    expect(endpointsOf(pages).sort()).toEqual(['email ops@example.com', `https ${context.pageEndpoint}`]);
    expect(endpointsOf(tickets)).toEqual(['email tickets@example.com']);
  });

  test('a page notifies on ALARM and on OK, a ticket on ALARM only', () => {
    const pages = refs([{ Ref: home.stack.getLogicalId(home.stack.monitoring.pagesTopic.node.defaultChild as never) }]);
    const tickets = refs([
      { Ref: home.stack.getLogicalId(home.stack.monitoring.ticketsTopic.node.defaultChild as never) },
    ]);
    const bySeverity = { page: 0, ticket: 0 };
    for (const [id, { Properties }] of home.alarms) {
      const description = String(Properties.AlarmDescription);
      if (/^Hurt: [^.]+\. Severity: page\./.test(description)) {
        bySeverity.page += 1;
        expect([id, refs(Properties.AlarmActions), refs(Properties.OKActions)]).toEqual([id, pages, pages]);
      } else {
        bySeverity.ticket += 1;
        expect([id, refs(Properties.AlarmActions), Properties.OKActions]).toEqual([id, tickets, undefined]);
      }
    }
    // Per objective a page and a ticket; the causes: the reputation page, the budget's, the
    // dead-letter queue's and the send backlog's tickets.
    expect(bySeverity).toEqual({ page: 4, ticket: 6 });
  });

  test("watch no 4xx: a visitor's refused request cannot fire one", () => {
    const watched = JSON.stringify(home.alarms.map(([, alarm]) => alarm.Properties));
    expect(watched).not.toMatch(/4xx|4XXError|ClientError|CapReached|Refused|HoneypotCaught|UntrustedOrigin/);
  });

  test('the sender-reputation alarm is the one that pauses sending', () => {
    const variables = Object.values(home.template.findResources('AWS::Lambda::Function'))
      .map((fn) => (fn as Resource).Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
      .flatMap((env) => (env?.Variables?.PAUSE_ON_ALARMS ? [env.Variables.PAUSE_ON_ALARMS] : []));
    const alarm = home.stack.monitoring.causeAlarms.senderReputationAlarm;
    const id = home.stack.getLogicalId(alarm.node.defaultChild as never);
    expect(variables).toEqual([{ Ref: id }]);
    expect(home.template.toJSON().Resources[id].Properties.AlarmName).toBe('First100DaysSite-SenderReputation');
  });

  test('the key or the configuration set disabled pages through the pages topic, as rules rather than alarms', () => {
    const pages = home.stack.getLogicalId(home.stack.monitoring.pagesTopic.node.defaultChild as never);
    const rules = home.resources.filter(
      ([, r]) =>
        r.Type === 'AWS::Events::Rule' &&
        /"aws\.(ses|kms)"/.test(JSON.stringify(r.Properties.EventPattern)) &&
        /Sending Status Disabled|KMS CMK Deletion|DisableKey/.test(JSON.stringify(r.Properties.EventPattern)),
    );
    expect(rules).toHaveLength(3);
    const keyIds = [home.stack.leadsKey.key].map((key) => home.stack.getLogicalId(key.node.defaultChild as never));
    for (const [id, { Properties }] of rules) {
      const [target] = Properties.Targets as { Arn: unknown; InputTransformer: { InputTemplate: string } }[];
      expect([id, refs(target.Arn)]).toEqual([id, refs({ Ref: pages })]);
      const message = target.InputTransformer.InputTemplate;
      expect([id, message]).toEqual([id, expect.stringMatching(/^"Hurt: [^.]+\. Severity: page\. /)]);
      expect([id, message]).toEqual([
        id,
        expect.stringContaining('Runbook: docs/operate.md#keyorconfigurationsetdisabled'),
      ]);
      const pattern = JSON.stringify(Properties.EventPattern);
      if (pattern.includes('aws.kms'))
        for (const key of keyIds) expect([id, pattern]).toEqual([id, expect.stringContaining(key)]);
    }
    // EventBridge may use the pages topic's key, for this stack's topics alone.
    const { Statement } = home.template.toJSON().Resources[keyIds[0]].Properties.KeyPolicy as {
      Statement: { Principal?: { Service?: string }; Condition?: unknown }[];
    };
    const forEvents = Statement.filter(({ Principal }) => Principal?.Service === 'events.amazonaws.com');
    // By what it encrypts (this stack's topics): EventBridge's KMS calls carry no aws:SourceArn.
    expect(forEvents.map(({ Condition }) => Object.keys(Object.values(Condition ?? {})[0] ?? {}))).toEqual([
      ['kms:EncryptionContext:aws:sns:topicArn'],
    ]);
    expect(JSON.stringify(forEvents[0].Condition)).toContain(':First100DaysSite-*');
  });
});
