/**
 * What docs/operate.md and docs/deploy.md tell the operator about the alarms (name, threshold,
 * window, which topic each notifies and when), the schedules, the topics' subscriptions to confirm,
 * the GitHub variables the workflows read and the edge stack's cost, held to the synthesized
 * templates and the workflow files. One synth: staging as cdk.json has it (eu-west-1, so the
 * edge-monitoring stack in us-east-1 too) with a mail provider, so every alarm a stage can have is
 * in it. The at-rest figures of a default stage are test/repository/cost-figures.test.ts's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { appTemplates, resourcesOfType, type StackTemplate } from '../infra/support/app-templates';
import { expectDocText, readDoc, section } from '../support/docs';
import { priceTable } from '../support/price-table';
import { canaryRoutes, funnelMetrics, productMetricsCount, routeLevelMetricsPerRoute } from '../support/stage-cost';

const templates = appTemplates({ stage: 'staging', mailProvider: 'kit', mailProviderList: '1234567' });
const stagingBudget = (
  JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: { stages: { staging: { dailySendBudget: number } } } }
).context.stages.staging.dailySendBudget;

const numberWords = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven'];
const inWords = (count: number) => numberWords[count] ?? String(count);
/** How the pages write a window of so many seconds. */
const windowWords: Record<number, string> = {
  900: '15 minutes',
  3600: '1 h',
  86400: '24 h(?:ours)?',
  259200: '3 days',
};
const percent = (ratio: number) => `${Number((ratio * 100).toFixed(4))}%`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A page's text with its line breaks and indentation as single spaces (a phrase may wrap). */
const flat = (text: string) => text.replace(/\s+/g, ' ');

interface AlarmFact {
  /** Its name after the stack's prefix: `SloFastBurn-Delivery`. */
  readonly name: string;
  readonly stack: StackTemplate;
  readonly severity: 'page' | 'ticket' | 'neither';
  readonly threshold: number;
  readonly periodSeconds: number;
  /** The metric-math expression it alarms on, if any. */
  readonly expression?: string;
  /** The metrics it reads (what CloudWatch bills it for). */
  readonly metricCount: number;
}

const topicKinds = { page: /AlarmTopic/, ticket: /TicketTopic/ };
const refOf = (action: unknown) => (action as { Ref?: string }).Ref ?? '';

const alarms: AlarmFact[] = resourcesOfType(templates, 'AWS::CloudWatch::Alarm').map(({ stack, resource }) => {
  const p = resource.Properties;
  const alarmActions = ((p.AlarmActions ?? []) as unknown[]).map(refOf);
  const okActions = ((p.OKActions ?? []) as unknown[]).map(refOf);
  // A page notifies the pages topic on ALARM and on OK; a ticket the tickets topic on ALARM only.
  const severity =
    alarmActions.length === 1 && topicKinds.page.test(alarmActions[0]) && okActions.join() === alarmActions.join()
      ? 'page'
      : alarmActions.length === 1 && topicKinds.ticket.test(alarmActions[0]) && okActions.length === 0
        ? 'ticket'
        : 'neither';
  const metrics = (p.Metrics ?? []) as { Expression?: string; Period?: number; MetricStat?: { Period: number } }[];
  const expression = metrics.find((metric) => metric.Expression);
  return {
    name: (p.AlarmName as string).replace(/^First100DaysSite-staging-/, ''),
    stack,
    severity,
    threshold: p.Threshold as number,
    periodSeconds: (p.Period as number | undefined) ?? metrics.find((metric) => metric.MetricStat)!.MetricStat!.Period,
    expression: expression?.Expression,
    metricCount: metrics.length > 0 ? metrics.filter((metric) => metric.MetricStat).length : 1,
  };
});
const alarmNames = alarms.map(({ name }) => name);
const productStack = templates.find(({ stackName }) => stackName === 'First100DaysSite-staging')!;
const edgeStack = templates.find(({ stackName }) => stackName.startsWith('First100DaysSiteEdgeMonitoring'))!;

/** The runbook's table of alarms: each row's alarm names (`<Objective>` and `-LeadHandoff` spelt out), severity and condition. */
function runbookRows(): { names: string[]; severity: string; firesWhen: string; row: string }[] {
  const objectives = ['Availability', 'Delivery', 'Latency'];
  return section(readDoc('operate.md'), 'Runbook')
    .split('\n')
    .filter((line) => /^\| `?[A-Z]/.test(line))
    .map((row) => {
      const [nameCell, severity, firesWhen] = row
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim());
      const written = [...nameCell.matchAll(/`([^`]+)`/g)].map(([, name]) => name);
      const names = (written.length > 0 ? written : [nameCell.split(' ')[0]]).flatMap((name, _index, all) => {
        const full = name.startsWith('-') ? `${all[0].split('-')[0]}${name}` : name;
        return full.includes('<Objective>') ? objectives.map((o) => full.replace('<Objective>', o)) : [full];
      });
      return { names, severity, firesWhen, row };
    });
}

/** What a row's condition must say of the alarm, from its template: its threshold and its window. */
function conditionOf(alarm: AlarmFact): RegExp {
  const window = windowWords[alarm.periodSeconds] ?? `${alarm.periodSeconds} s`;
  if (/^(Slo|Edge)(Fast|Slow)Burn/.test(alarm.name)) return new RegExp(`${alarm.threshold}× over ${window}`);
  if (alarm.name === 'SenderReputation') {
    const [, minimum] = /FILL\(sent, 0\) >= (\d+)/.exec(alarm.expression!)!;
    const [, bounce] = /bounces, 0\) \/ FILL\(sent, 0\) \/ ([\d.]+)/.exec(alarm.expression!)!;
    const [, complaint] = /complaints, 0\) \/ FILL\(sent, 0\) \/ ([\d.]+)/.exec(alarm.expression!)!;
    return new RegExp(
      `with ${minimum} or more sends in ${window}, ${escape(percent(Number(bounce)))} bounced or ${escape(percent(Number(complaint)))} complained`,
    );
  }
  if (alarm.name === 'SendBudgetRunningOut') {
    return new RegExp(`${escape(percent(alarm.threshold / stagingBudget))} of the daily send budget sent in ${window}`);
  }
  if (alarm.name.startsWith('DeadLetters-')) return /^a message in that dead-letter queue$/;
  if (alarm.name === 'SendBacklog') return new RegExp(`waited ${windowWords[alarm.threshold]} in the send queue`);
  throw new Error(`No condition known for ${alarm.name}: add it here, and its row to the runbook's table`);
}

describe("docs/operate.md's runbook table", () => {
  const rows = runbookRows().filter(({ severity }) => !severity.includes('no alarm'));

  test('names every alarm of the stage, its edge stack included, and no other', () => {
    expect(rows.flatMap(({ names }) => names).sort()).toEqual([...alarmNames].sort());
  });

  test('gives each alarm the severity its notifications have: a page to the pages topic on ALARM and OK, a ticket on ALARM only', () => {
    expect(alarms.filter(({ severity }) => severity === 'neither').map(({ name }) => name)).toEqual([]);
    const wrong = rows.flatMap(({ names, severity }) =>
      names
        .map((name) => alarms.find((alarm) => alarm.name === name)!)
        .filter((alarm) => alarm && !severity.startsWith(alarm.severity))
        .map(({ name, severity: actual }) => `${name}: the table says ${severity}, the template ${actual}`),
    );
    expect(wrong).toEqual([]);
  });

  test("states each alarm's threshold and window as the template has them", () => {
    const wrong = rows.flatMap(({ names, firesWhen }) =>
      names
        .map((name) => alarms.find((alarm) => alarm.name === name)!)
        .filter((alarm) => alarm && !conditionOf(alarm).test(firesWhen))
        .map((alarm) => `${alarm.name}: "${firesWhen}" should match ${conditionOf(alarm)}`),
    );
    expect(wrong).toEqual([]);
  });

  test("gives each burn alarm's own rate in its runbook section, and no other", () => {
    const wrong = alarms
      .filter(({ name }) => /^(Slo|Edge)(Fast|Slow)Burn/.test(name))
      .flatMap(({ name, threshold }) =>
        [
          ...flat(section(readDoc('operate.md'), name)).matchAll(
            /(\d+(?:\.\d+)?)(?: or (\d+(?:\.\d+)?))? ?(?:times|×)/g,
          ),
        ]
          .flatMap((match) => [match[1], match[2]])
          .filter((rate) => rate !== undefined && Number(rate) !== threshold)
          .map((rate) => `${name}: ${rate}× (the alarm: ${threshold}×)`),
      );
    expect(wrong).toEqual([]);
  });

  test("says which alarm pauses sending: the one the pause function's subscription lets through", () => {
    const [pause] = resourcesOfType([productStack], 'AWS::SNS::Subscription').filter(
      ({ resource }) => resource.Properties.Protocol === 'lambda',
    );
    const names = (pause.resource.Properties.FilterPolicy.AlarmName as unknown[]).map(refOf);
    const pausing = alarms.filter(({ name }) => names.some((id) => id.includes(name.replace(/-/g, ''))));
    expect(pausing.map(({ name }) => name)).toEqual(['SenderReputation']);
    expect(
      runbookRows()
        .filter(({ severity }) => severity.includes('pauses'))
        .flatMap(({ names }) => names),
    ).toEqual(pausing.map(({ name }) => name));
    expectDocText('operate.md', `(only the sender-reputation alarm's name, only \`NewStateValue: ALARM\`)`);
  });

  test('counts the alarms of a stage in us-east-1 and the one more outside it', () => {
    const product = alarms.filter(({ stack, name }) => stack === productStack && name !== 'DeadLetters-LeadHandoff');
    const edge = alarms.filter(({ stack }) => stack === edgeStack);
    expectDocText(
      'operate.md',
      `${product.length} alarms in a stage in us-east-1 (\`DeadLetters-LeadHandoff\` only with a mail provider), ${inWords(edge.length)} more outside it`,
    );
  });

  test('lists the disabled notices as no alarm, with the EventBridge rules that page', () => {
    const notices = resourcesOfType([productStack], 'AWS::Events::Rule').filter(({ resource }) =>
      ((resource.Properties.Targets ?? []) as { Arn: unknown }[]).some(({ Arn }) => topicKinds.page.test(refOf(Arn))),
    );
    expect(notices.length).toBeGreaterThan(0);
    const row = runbookRows().find(({ severity }) => severity.includes('no alarm'));
    expect(row?.names).toEqual(['KeyOrConfigurationSetDisabled']);
    expectDocText(
      'operate.md',
      `${inWords(notices.length)} EventBridge rules on AWS's own events publish to the pages topic`,
    );
  });
});

describe('the alarms the pages name elsewhere', () => {
  const causesWithoutAlarm = section(readDoc('operate.md'), 'Causes without an alarm of their own');
  /** A name written as an alarm: "pages through `X`", "the X alarm", "the `X` ticket", "X's ALARM". */
  const alarmMention =
    /(?:pages? through|(?:alarm|ticket|page)s? (?:named|called)) `?([A-Z][A-Za-z0-9]+(?:-[A-Z][A-Za-z0-9]+)?)`?|\b(?:the|its|a) `?([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*(?:-[A-Z][A-Za-z0-9]+)?)`? (?:alarm|ticket|page)s?\b/g;
  const known = new Set([...alarmNames, 'SloFastBurn', 'SloSlowBurn', 'DeadLetters', 'EdgeFastBurn']);

  test.each(['operate.md', 'deploy.md'])('in docs/%s are alarms of the stage', (page) => {
    const text = flat(page === 'operate.md' ? readDoc(page).replace(causesWithoutAlarm, '') : readDoc(page));
    const unknown = [...text.matchAll(alarmMention)]
      .map((match) => ({ name: match[1] ?? match[2], phrase: match[0] }))
      .filter(({ name }) => !known.has(name));
    expect(unknown).toEqual([]);
  });

  test("operate.md's causes without an alarm have none: no heading there is an alarm's name", () => {
    const headings = [...causesWithoutAlarm.matchAll(/^### (.+)$/gm)].map(([, heading]) => heading);
    expect(headings.length).toBeGreaterThan(0);
    expect(headings.filter((heading) => alarmNames.includes(heading))).toEqual([]);
  });

  test("no alarm watches the account's concurrency, and operate.md promises none", () => {
    const alarmResources = resourcesOfType(templates, 'AWS::CloudWatch::Alarm');
    expect(alarmResources.filter(({ resource }) => JSON.stringify(resource).includes('ConcurrentExecutions'))).toEqual(
      [],
    );
    const quota = flat(section(readDoc('operate.md'), "Lambda's concurrency quota"));
    expect(quota).toContain("no alarm watches the account's concurrency");
    expect(quota).not.toMatch(/alarm fires at \d+%/);
  });
});

describe('the smoke test in the SES sandbox (ops/smoke/deployment-checks.ts: a warning, exit 0)', () => {
  test.each(['operate.md', 'deploy.md'])('docs/%s never says it fails there', (page) => {
    const sentences = flat(readDoc(page))
      .split(/(?<=\.)\s/)
      .filter((sentence) => /smoke/.test(sentence) && /sandbox|`SES account`/.test(sentence));
    expect(
      sentences.filter((sentence) => /\bfails? (?:its|the|in)\b[^.]*(?:sandbox|SES account)/.test(sentence)),
    ).toEqual([]);
  });

  test('docs/operate.md says it warns, exit 0', () => {
    expectDocText('operate.md', 'In the sandbox the SES check warns (exit 0)');
    expectDocText('operate.md', 'warns on its `SES account` check (exit 0');
  });
});

describe('the reputation alarm in docs/deploy.md', () => {
  const reputation = alarms.find(({ name }) => name === 'SenderReputation')!;
  const [, minimum] = /FILL\(sent, 0\) >= (\d+)/.exec(reputation.expression!)!;
  const [, bounce] = /bounces, 0\) \/ FILL\(sent, 0\) \/ ([\d.]+)/.exec(reputation.expression!)!;
  const [, complaint] = /complaints, 0\) \/ FILL\(sent, 0\) \/ ([\d.]+)/.exec(reputation.expression!)!;

  test("gives the template's rates and the sends it waits for", () => {
    expectDocText(
      'deploy.md',
      `with ${minimum} or more sends in 24 hours, at a ${percent(Number(bounce))} bounce rate or a ${percent(Number(complaint))} complaint rate`,
    );
  });

  test("says staging's budget is below those sends, so staging's reputation alarm never fires", () => {
    expect(stagingBudget).toBeLessThan(Number(minimum));
    expectDocText(
      'deploy.md',
      `staging's \`dailySendBudget\` of ${stagingBudget} is below the ${minimum} sends the reputation alarm waits for: staging's never fires`,
    );
  });
});

describe('the schedules', () => {
  const rules = resourcesOfType([productStack], 'AWS::Events::Rule').filter(
    ({ resource }) => resource.Properties.ScheduleExpression,
  );
  /** Each scheduled function (its catalogue id, as the target's logical id begins) and how the pages name it. */
  const scheduled = { UnsentCheck: 'unsent check', Canary: 'canary', LeadDigest: 'digest' };
  const scheduleOf = (id: string) =>
    rules.find(({ resource }) =>
      (resource.Properties.Targets as { Arn: { 'Fn::GetAtt': [string] } }[]).some(({ Arn }) =>
        Arn['Fn::GetAtt'][0].startsWith(`EventFunctions${id}`),
      ),
    )?.resource.Properties.ScheduleExpression as string | undefined;
  /** Each sentence of both pages naming `name`. */
  const sentencesNaming = (name: string) =>
    ['operate.md', 'deploy.md'].flatMap((page) =>
      flat(readDoc(page))
        .split(/(?<=[.:;])\s/)
        .filter((sentence) => sentence.toLowerCase().includes(name)),
    );

  test('every schedule of the stage is one the pages describe', () => {
    expect(rules.map(({ resource }) => resource.Properties.ScheduleExpression as string).sort()).toEqual(
      Object.keys(scheduled).map(scheduleOf).sort(),
    );
  });

  test.each(['UnsentCheck', 'Canary'] as const)(
    "the %s's rate is the one every sentence about its runs gives",
    (id) => {
      const [, minutes] = /^rate\((\d+) minutes\)$/.exec(scheduleOf(id)!)!;
      const claims = sentencesNaming(scheduled[id]).flatMap((sentence) =>
        [
          ...sentence.matchAll(
            /(?:\bruns?\b|\bscheduled?\b)[^.;:,]{0,30}?every (\d+) minutes|every (\d+) minutes,? (?:an|by an) EventBridge schedule/g,
          ),
        ].map((match) => ({ minutes: match[1] ?? match[2], sentence })),
      );
      expect(claims.length).toBeGreaterThan(0);
      expect(claims.filter((claim) => claim.minutes !== minutes)).toEqual([]);
    },
  );

  test("the weekly digest's day and hour are the cron's", () => {
    const [, minute, hour, weekDay] = /^cron\((\d+) (\d+) \? \* ([A-Z]{3}) \*\)$/.exec(scheduleOf('LeadDigest')!)!;
    const day = { MON: 'Monday' }[weekDay];
    expectDocText('deploy.md', `every ${day} at ${hour.padStart(2, '0')}:${minute.padStart(2, '0')} UTC`);
  });
});

/** Every `vars.X` the workflows read. */
function workflowVariables(): string[] {
  const read = readdirSync('.github/workflows').flatMap((file) =>
    [...readFileSync(`.github/workflows/${file}`, 'utf8').matchAll(/\bvars\.([A-Z0-9_]+)/g)].map(([, name]) => name),
  );
  return [...new Set(read)].sort();
}

describe("the setup's subscriptions and variables (docs/deploy.md)", () => {
  const firstDeployment = flat(section(readDoc('deploy.md'), 'First deployment of a stage, step by step'));

  test('step 6 counts the subscription e-mails to confirm, in us-east-1 and outside it', () => {
    const emails = (stacks: StackTemplate[]) =>
      resourcesOfType(stacks, 'AWS::SNS::Subscription').filter(
        ({ resource }) => resource.Properties.Protocol === 'email',
      ).length;
    expect(firstDeployment).toContain(
      `${inWords(emails([productStack]))} subscription e-mails in us-east-1, ${inWords(emails([productStack, edgeStack]))} outside it`,
    );
  });

  test('step 5 names every variable a workflow reads', () => {
    const read = workflowVariables();
    const step = /5\. \*\*The GitHub environment\*\*.*?(?= 6\. \*\*)/.exec(firstDeployment)?.[0] ?? '';
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((name) => !step.includes(`\`${name}\``))).toEqual([]);
  });

  test('the GitHub environments section names every variable a workflow reads', () => {
    const environments = section(readDoc('deploy.md'), 'GitHub environments');
    expect(workflowVariables().filter((name) => !environments.includes(`\`${name}\``))).toEqual([]);
  });

  test('the key-disabled notice needs a CloudTrail trail: the setup says to have one', () => {
    const viaCloudTrail = resourcesOfType([productStack], 'AWS::Events::Rule').some(({ resource }) =>
      JSON.stringify(resource.Properties.EventPattern ?? {}).includes('AWS API Call via CloudTrail'),
    );
    expect(viaCloudTrail).toBe(true);
    expect(firstDeployment).toMatch(/aws cloudtrail create-trail/);
  });
});

describe("what a stage outside us-east-1 adds (the edge-monitoring stack's)", () => {
  const alarmMetrics = alarms
    .filter(({ stack }) => stack === edgeStack)
    .map(({ metricCount }) => metricCount)
    .reduce((sum, count) => sum + count, 0);
  const keys = resourcesOfType([edgeStack], 'AWS::KMS::Key').length;
  const alarmUsd = (alarmMetrics * priceTable.alarmMetric.usd).toFixed(2);
  const keyUsd = (keys * priceTable.key.usd).toFixed(0);

  test('docs/deploy.md and docs/operate.md give its alarm and its key at list prices', () => {
    expect([alarmMetrics, keys]).toEqual([2, 1]);
    expectDocText(
      'deploy.md',
      `Outside us-east-1 the edge-monitoring stack adds one alarm of ${inWords(alarmMetrics)} metrics (${alarmUsd} USD) and its topic's key (${keyUsd} USD`,
    );
    expectDocText('operate.md', `the edge stack's alarm adds ${alarmUsd} USD and its topic's key ${keyUsd} USD`);
    const extrasUsd = (alarmMetrics * priceTable.alarmMetric.usd + keys * priceTable.key.usd).toFixed(2);
    expectDocText('deploy.md', `outside us-east-1 add the edge-monitoring stack's ${extrasUsd} USD`);
  });
});

describe('what the per-request metrics cost (docs/operate.md)', () => {
  const usd = (amount: number) => amount.toFixed(2);
  const metricUsd = priceTable.customMetric.usd;

  test("leaves the API's route-level metrics off, and says what they would cost on", () => {
    const [{ resource: apiStage }] = resourcesOfType([productStack], 'AWS::ApiGatewayV2::Stage');
    const routeSettings = Object.values(apiStage.Properties.RouteSettings as Record<string, object>);
    const detailed = [apiStage.Properties.DefaultRouteSettings as object, ...routeSettings].filter(
      (settings) => (settings as { DetailedMetricsEnabled?: boolean }).DetailedMetricsEnabled !== false,
    );
    // https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-metrics.html
    const perRoute = routeLevelMetricsPerRoute;
    expect(detailed).toEqual([]);
    expectDocText(
      'operate.md',
      `the API's route-level metrics: off; on, ${perRoute} for each of the ${routeSettings.length} routes and methods would be ${usd(routeSettings.length * perRoute * metricUsd)} USD a month with a request on each every hour, and the canary's ${canaryRoutes} routes alone ${usd(canaryRoutes * perRoute * metricUsd)} USD at rest`,
    );
  });

  test("gives the functions' own metrics: how many there can be, and what they cost at a reader an hour", () => {
    const possible = productMetricsCount();
    const funnel = funnelMetrics;
    expectDocText(
      'operate.md',
      `the functions' own metrics (embedded metric format): at most ${possible}, ${usd(metricUsd)} USD each a month prorated by the hour one is published: ${usd(funnel.length * metricUsd)} USD a month for the funnel's ${inWords(funnel.length)} at a reader every hour, ${usd(possible * metricUsd)} USD if every one were published every hour`,
    );
  });
});
