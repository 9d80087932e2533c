/**
 * What a stage costs at rest (no traffic), computed from the synthesized templates of a default
 * synth in us-east-1 with AWS's own list prices, dated, each with its source: the alarms (each
 * metric an alarm reads, a metric-math alarm's every metric, a composite alarm), the dashboard
 * (free within 50 metrics), the keys and their rotations, the secret, and the web ACL beside it.
 * docs/deploy.md and docs/operate.md give the figures this test prints; a new alarm, metric or key
 * changes them and this test names the line to update.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { defaultDailySendBudget } from '../../core/config/function-environment';
import { cheatSheetPdfForTests } from '../support/cheat-sheet-pdf';
import { expectDocText, readDoc } from '../support/docs';
import { priceTable } from '../support/price-table';
import { leadCost, leadPrices, type TemplateResource } from '../support/lead-cost';
import { createTestApp } from '../infra/support/synth';
import { canaryCadence } from '../../core/config/canary-cadence';
import { catalogueFunctions } from '../../core/api/catalogue/functions';

/**
 * What the canary (lambdas/canary/) adds at rest, a month of 30 days at its cadence
 * (core/config/canary-cadence.ts): its alarm metric (the 1-hour window reads its Errors), the
 * simulator's e-mails, its runs and the functions, routes and requests each run calls. A run took
 * about 1 s on the local twin, proof of work included (test/lambdas/canary/handler.test.ts); it is
 * counted at 2 s, for the round trips through CloudFront, and the functions it calls at 0.3 s each.
 */
export function canaryAtRest() {
  const p = priceTable;
  const runs = (30 * 24 * 60) / canaryCadence.checkEveryMinutes;
  const sends = (30 * 24 * 60) / canaryCadence.sendEveryMinutes;
  // Each run: the save; each sending run: the challenge, the send, then SES's delivery event.
  const calledFunctions = runs + 3 * sends;
  const routeRequests = runs + 2 * sends;
  const gbSeconds = runs * 0.25 * 2 + calledFunctions * 0.25 * 0.3;
  // A save writes its item and its key's record twice; a send its key's record twice and the item twice, SES's event once.
  const writes = runs * 3 + sends * 5;
  const reads = runs * 2 + sends * 2;
  const lines = {
    alarmMetric: p.alarmMetric.usd,
    email: sends * p.sesEmail.usd,
    lambda: gbSeconds * p.lambda.gbSecondUsd + (runs + calledFunctions) * p.lambda.requestUsd,
    api: routeRequests * p.httpApiRequest.usd,
    cloudFront: (runs + routeRequests) * p.cloudFrontRequest.usd,
    dynamoDb: writes * p.dynamoDb.writeUsd + reads * p.dynamoDb.readUsd,
  };
  return { runs, sends, lines, usd: Object.values(lines).reduce((sum, line) => sum + line, 0) };
}

interface Resource {
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
}

/** Each context's templates, synthesized once for the file (the lead's cost reads the default's too). */
const synthesized = new Map<string, TemplateResource[]>();

function templatesOf(context: Record<string, string>): TemplateResource[] {
  const key = JSON.stringify(context);
  const cached = synthesized.get(key);
  if (cached) return cached;
  const { stack, edgeMonitoringStack, webFirewallStack } = createTestApp({
    env: { account: '111111111111', region: 'us-east-1' },
    // The default synth: the web ACL on, as `npx cdk deploy` makes it.
    context: { waf: 'true', ...context },
  });
  const resources = [stack, edgeMonitoringStack, webFirewallStack]
    .flatMap((s) => (s ? [Template.fromStack(s).toJSON()] : []))
    .flatMap((template) =>
      Object.entries(template.Resources as Record<string, Resource>).map(([logicalId, resource]) => ({
        logicalId,
        ...resource,
      })),
    );
  synthesized.set(key, resources);
  return resources;
}

/** The metrics each dashboard's graphs read (each metric line; an expression's metrics are lines too), the operator's first. */
function dashboardMetrics(resources: readonly Resource[]): number[] {
  return resources
    .filter(({ Type }) => Type === 'AWS::CloudWatch::Dashboard')
    .map(({ Properties }) => {
      const body = Properties.DashboardBody as string | { 'Fn::Join': [string, unknown[]] };
      const text =
        typeof body === 'string'
          ? body
          : body['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'x')).join('');
      const widgets = (JSON.parse(text) as { widgets: { properties: { metrics?: unknown[][] } }[] }).widgets;
      return widgets.flatMap(({ properties }) => properties.metrics ?? []).filter((line) => typeof line[0] === 'string')
        .length;
    });
}

export function atRest(context: Record<string, string> = {}) {
  const resources = templatesOf(context);
  const ofType = (type: string) => resources.filter(({ Type }) => Type === type);
  const metricAlarms = ofType('AWS::CloudWatch::Alarm');
  const alarmMetrics = metricAlarms
    .map(({ Properties }) => {
      const metrics = Properties.Metrics as { MetricStat?: unknown }[] | undefined;
      return metrics ? metrics.filter((m) => m.MetricStat).length : 1;
    })
    .reduce((sum, count) => sum + count, 0);
  const composites = ofType('AWS::CloudWatch::CompositeAlarm').length;
  const keys = ofType('AWS::KMS::Key').length;
  const secrets = ofType('AWS::SecretsManager::Secret').length;
  const webAcls = ofType('AWS::WAFv2::WebACL');
  const webAclRules = webAcls
    .map(({ Properties }) => (Properties.Rules as unknown[]).length)
    .reduce((a, b) => a + b, 0);
  const plans = ofType('AWS::PricingPlanManager::Subscription').length;
  const dashboards = dashboardMetrics(resources);
  const [dashboard = 0, funnelDashboard = 0] = dashboards;

  const p = priceTable;
  const alarmsUsd = alarmMetrics * p.alarmMetric.usd + composites * p.compositeAlarm.usd;
  const freeTierUsd = Math.min(alarmMetrics, p.freeAlarmMetrics.count) * p.alarmMetric.usd;
  // Free: an account's first three dashboards of up to 50 metrics each (one stage per account).
  const isPaid = (metrics: number, index: number) =>
    index >= p.dashboard.freeDashboards || metrics > p.dashboard.freeMetrics;
  const dashboardUsd = dashboards.filter(isPaid).length * p.dashboard.usd;
  const funnelDashboardUsd = dashboards.length > 1 && isPaid(funnelDashboard, 1) ? p.dashboard.usd : 0;
  // The funnel's day-long table (the salt and the visitor marks): billed per request, so nothing at rest; its
  // storage, a day's marks of about 100 bytes each, is far inside DynamoDB's always-free 25 GB.
  const funnelTable = ofType('AWS::DynamoDB::Table').find(
    ({ Properties }) => Properties.TableName === 'cheat_sheet_funnel_visitors',
  );
  const funnelTableBilling = funnelTable?.Properties.BillingMode as string | undefined;
  const secretsUsd = secrets * p.secret.usd;
  const keysUsd = (year: number) => keys * (p.key.usd + Math.min(year - 1, p.key.paidRotations) * p.key.rotationUsd);
  const beforeWebAcl = (year: number) => alarmsUsd + dashboardUsd + secretsUsd + keysUsd(year);
  const webAclUsd = plans > 0 ? p.flatRateFree.usd : webAcls.length * p.webAcl.usd + webAclRules * p.webAcl.ruleUsd;
  return {
    alarms: metricAlarms.length + composites,
    alarmMetrics,
    composites,
    keys,
    secrets,
    dashboard,
    funnelDashboard,
    dashboards: dashboards.length,
    /** The billing mode of the funnel's table of the day's visitors: PAY_PER_REQUEST costs nothing at rest. */
    funnelTableBilling,
    /**
     * What the funnel adds at rest: its dashboard when it is not free (it has no alarm, an idle function costs
     * nothing, and its table is billed per request).
     */
    funnelAtRestUsd: funnelDashboardUsd,
    webAclRules,
    alarmsUsd,
    freeTierUsd,
    webAclUsd,
    /** First year, second, third and after: before the web ACL, at list prices. */
    beforeWebAcl: [1, 2, 3].map(beforeWebAcl),
    /** The same after CloudWatch's always-free alarm metrics. */
    beforeWebAclFreeTier: [1, 2, 3].map((year) => beforeWebAcl(year) - freeTierUsd),
    /** Everything, the web ACL (or the flat-rate plan) included, at list prices. */
    allInListPrice: [1, 2, 3].map((year) => beforeWebAcl(year) + webAclUsd),
    /** The same after CloudWatch's always-free alarm metrics. */
    allIn: [1, 2, 3].map((year) => beforeWebAcl(year) - freeTierUsd + webAclUsd),
  };
}

/**
 * What 10,000 visits to `/` cost the funnel, pay-as-you-go: each visit's beacon is one request
 * through CloudFront and the HTTP API, one invocation of the visit function (billed 50 ms at its
 * memory: an assumption, two DynamoDB calls of a few milliseconds each on a warm container), two
 * write units (the visitor's mark, written or refused, in the funnel visitors' table, and the day's
 * counts in the counters' table; the day's salt is read once per container and day), and about
 * 1 KB of log lines (Lambda's START, END and REPORT and one
 * metrics line).
 */
export function funnelPer10000Visits(): { readonly usd: number; readonly parts: Record<string, number> } {
  const p = priceTable;
  const visits = 10_000;
  const memoryGb = catalogueFunctions.countVisit.memoryMb / 1024;
  const billedSeconds = 0.05;
  const parts = {
    cloudFront: visits * p.cloudFrontRequest.usd,
    api: visits * p.httpApiRequest.usd,
    lambda: visits * (p.lambda.requestUsd + memoryGb * billedSeconds * p.lambda.gbSecondUsd),
    // A conditional write that fails costs a write unit too.
    dynamoDb: visits * 2 * p.dynamoDb.writeUsd,
    logs: ((visits * 1024) / 1024 ** 3) * p.logsIngestedGb.usd,
  };
  return { usd: Object.values(parts).reduce((sum, part) => sum + part, 0), parts };
}

const usd = (amount: number) => amount.toFixed(2);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Fails naming the page and the line to update: the line that starts as `expected` does (its
 * words before the first figure), or the page alone when no line does.
 */
function expectLine(page: string, expected: string | RegExp): void {
  const text = readDoc(page);
  const found = typeof expected === 'string' ? text.includes(expected) : expected.test(text);
  if (found) return;
  const wanted = typeof expected === 'string' ? expected : expected.source;
  const stem = wanted.replace(/\\/g, '').split(/\d/)[0].trim();
  const lineNumber = stem ? text.split('\n').findIndex((line) => line.includes(stem)) + 1 : 0;
  throw new Error(
    `docs/${page}${lineNumber > 0 ? `, line ${lineNumber},` : ''} disagrees with the computed figures: write ${typeof expected === 'string' ? `"${expected}"` : `a line matching ${expected}`}`,
  );
}

describe('a stage at rest (default synth, us-east-1, no traffic)', () => {
  const payAsYouGo = atRest();
  const freePlan = atRest({ pricingPlan: 'free' });
  const years = (figures: readonly number[]) => figures.map(usd).join(' / ');

  test('prints its figures', () => {
    console.log(
      [
        `Prices read on ${priceTable.readOn}. ${payAsYouGo.alarms} alarms (${payAsYouGo.alarmMetrics} alarm metrics, ${payAsYouGo.composites} composite), dashboard ${payAsYouGo.dashboard} metrics, ${payAsYouGo.keys} customer managed key${payAsYouGo.keys === 1 ? '' : 's'}, ${payAsYouGo.secrets} secret.`,
        `Before the web ACL, at list prices, first year / second / third and after: ${years(payAsYouGo.beforeWebAcl)} USD (after CloudWatch's always-free 10 alarm metrics: ${years(payAsYouGo.beforeWebAclFreeTier)}).`,
        `The web ACL, pay-as-you-go (${payAsYouGo.webAclRules} rules): ${usd(payAsYouGo.webAclUsd)} USD; all in, at list prices: ${years(payAsYouGo.beforeWebAcl.map((figure) => figure + payAsYouGo.webAclUsd))} USD.`,
        `With pricingPlan=free, all in: ${years(freePlan.allInListPrice)} USD at list prices (${years(freePlan.allIn)} after the free alarm metrics).`,
      ].join('\n'),
    );
    expect(payAsYouGo.alarms).toBeGreaterThan(0);
  });

  // The budget: 5 USD a month for a stage nobody visits, the canary's own traffic included (its
  // alarm metric is in the alarms already): what a book's site may cost before its first reader.
  const atRestBudgetUsd = 5;
  const canaryTrafficUsd = canaryAtRest().usd - priceTable.alarmMetric.usd;

  test("costs at most 5 USD a month in the first year before the web ACL, the canary's traffic included, at list prices (CloudWatch's free alarm metrics not counted)", () => {
    expect(Math.round((payAsYouGo.beforeWebAcl[0] + canaryTrafficUsd) * 100) / 100).toBeLessThanOrEqual(
      atRestBudgetUsd,
    );
  });

  test("costs at most 5 USD a month in the first year all in with the flat-rate Free plan, the canary's traffic included, at list prices", () => {
    expect(Math.round((freePlan.allInListPrice[0] + canaryTrafficUsd) * 100) / 100).toBeLessThanOrEqual(
      atRestBudgetUsd,
    );
  });

  test("keeps one customer managed key, the leads', and no Secrets Manager secret beyond the origin's", () => {
    expect([payAsYouGo.keys, payAsYouGo.secrets]).toEqual([1, 1]);
  });

  test('keeps its dashboard within the free 50 metrics', () => {
    expect(payAsYouGo.dashboard).toBeLessThanOrEqual(priceTable.dashboard.freeMetrics);
  });

  test("keeps the author's funnel dashboard free too: a second dashboard within the 50 metrics", () => {
    expect(payAsYouGo.dashboards).toBe(2);
    expect(payAsYouGo.funnelDashboard).toBeLessThanOrEqual(priceTable.dashboard.freeMetrics);
  });

  test('the funnel adds nothing at rest, and at most 0.10 USD per 10,000 visits', () => {
    const perVisits = funnelPer10000Visits();
    console.log(
      `The funnel: ${usd(payAsYouGo.funnelAtRestUsd)} USD a month at rest (its dashboard: ${payAsYouGo.funnelDashboard} metrics, within the free three dashboards; its table of the day's visitors: ${payAsYouGo.funnelTableBilling}, 0.00 USD at rest); ${perVisits.usd.toFixed(3)} USD per 10,000 visits (${Object.entries(
        perVisits.parts,
      )
        .map(([part, amount]) => `${part} ${amount.toFixed(4)}`)
        .join(', ')}).`,
    );
    expect(payAsYouGo.funnelAtRestUsd).toBe(0);
    expect(payAsYouGo.funnelTableBilling).toBe('PAY_PER_REQUEST');
    expect(perVisits.usd).toBeLessThanOrEqual(0.1);
    expectLine(
      'deploy.md',
      `| the author's funnel dashboard: ${payAsYouGo.funnelDashboard} metrics, the second of the free three`,
    );
    expectLine('deploy.md', `the funnel costs about ${perVisits.usd.toFixed(3)} USD per 10,000 visits to \`/\``);
  });

  test("docs/deploy.md's table gives the alarms, the keys, the web ACL and the totals", () => {
    expectLine(
      'deploy.md',
      new RegExp(
        `\\| ${payAsYouGo.alarms} CloudWatch alarms \\(${payAsYouGo.alarmMetrics} alarm metrics, ${payAsYouGo.composites} composite\\) +\\| ${escape(usd(payAsYouGo.alarmsUsd))} USD +\\|`,
      ),
    );
    expectLine(
      'deploy.md',
      new RegExp(
        `\\| ${payAsYouGo.keys} KMS keys?[^|]*\\| ${escape(usd(payAsYouGo.keys * priceTable.key.usd))} USD +\\|`,
      ),
    );
    const [first, second, third] = payAsYouGo.beforeWebAcl;
    const [freeFirst, freeSecond, freeThird] = payAsYouGo.beforeWebAclFreeTier;
    expectLine(
      'deploy.md',
      `About ${usd(first)} USD a month per stage at list prices in the first year before the web ACL (${usd(second)} in the second, ${usd(third)} from the\nthird: the key${payAsYouGo.keys === 1 ? "'s" : "s'"} rotations)`,
    );
    expectLine(
      'deploy.md',
      `with the canary's own traffic, ${usd(first + canaryTrafficUsd)} USD, within the ${atRestBudgetUsd} USD a month a stage aims at`,
    );
    expectLine(
      'deploy.md',
      `${usd(freeFirst)} (${usd(freeSecond)}, ${usd(freeThird)}) while the account's other alarms leave CloudWatch's always-free 10 alarm metrics unused`,
    );
    expectLine(
      'deploy.md',
      new RegExp(`\\| the dashboard: ${payAsYouGo.dashboard} metrics, within the free 50 +\\| 0\\.00 USD`),
    );
    expectLine('deploy.md', `the web ACL adds ${usd(payAsYouGo.webAclUsd)} USD a month on pay-as-you-go`);
    expectDocText(
      'deploy.md',
      `As deployed by default, the web ACL on pay-as-you-go, a stage is ${usd(payAsYouGo.allInListPrice[0] + canaryTrafficUsd)} USD a month at rest in the first year, the canary's traffic included`,
    );
    expectLine(
      'deploy.md',
      `with \`-c pricingPlan=free\` the whole stack is ${usd(freePlan.allInListPrice[0])} USD a month at rest at list prices in the first year`,
    );
    expectLine(
      'deploy.md',
      `(${usd(freePlan.allInListPrice[1])} in the second, ${usd(freePlan.allInListPrice[2])} from the third; ${usd(freePlan.allIn[0])} with the free alarm metrics)`,
    );
  });

  test('docs/operate.md gives the same number of alarms and their cost', () => {
    expectLine(
      'operate.md',
      `${payAsYouGo.alarms} alarms (${payAsYouGo.composites} of them composite) reading ${payAsYouGo.alarmMetrics} alarm metrics: ${usd(payAsYouGo.alarmsUsd)} USD a month`,
    );
    expectLine('operate.md', `the dashboard: ${payAsYouGo.dashboard} metrics, within the free 50`);
    expectLine('operate.md', `${payAsYouGo.dashboard} metrics in all: within the 50 a free dashboard may graph`);
  });
});

describe('a thousand leads (default synth, us-east-1, list prices)', () => {
  let perLead: ReturnType<typeof leadCost>;
  beforeAll(async () => {
    perLead = leadCost(templatesOf({}), (await cheatSheetPdfForTests()).byteLength);
  });
  const perThousand = (usdPerLead: number) => (usdPerLead * 1000).toFixed(3);

  test('prints what each line costs per 1,000 leads', () => {
    console.log(
      [
        `Prices read on ${leadPrices.readOn}. Per 1,000 leads, at list prices, upper bounds:`,
        ...perLead.lines.map(({ item, usd }) => `  ${item}: ${perThousand(usd)} USD`),
        `  in all: ${perThousand(perLead.total)} USD`,
      ].join('\n'),
    );
    expect(perLead.lines.every(({ usd }) => usd >= 0)).toBe(true);
  });

  test('cost at most 0.50 USD', () => {
    expect(perLead.total * 1000).toBeLessThanOrEqual(0.5);
  });

  test('docs/abuse.md gives what a stranger spending the whole daily send budget costs, at most', () => {
    const budgetUsd = (defaultDailySendBudget * perLead.total).toFixed(2);
    expectLine(
      'abuse.md',
      `the day's ${defaultDailySendBudget.toLocaleString('en-US')} e-mails, at most ${budgetUsd} USD`,
    );
    expectLine('abuse.md', `a day instead of 500, at most ${budgetUsd} USD`);
  });

  test('docs/capacity.md gives the total and every line as computed', () => {
    expectLine('capacity.md', `in all, about ${(perLead.total * 1000).toFixed(2)} USD per 1,000 leads`);
    for (const { item, usd } of perLead.lines) {
      expectLine('capacity.md', new RegExp(`\\| ${escape(item)} +\\| ${escape(perThousand(usd))} +\\|`));
    }
  });
});

describe('the canary at rest', () => {
  const canary = canaryAtRest();

  test('prints its figures and adds at most 0.50 USD a month, which it shares with the funnel', () => {
    console.log(
      `The canary: ${canary.runs} runs and ${canary.sends} e-mails to the simulator a month: ${Object.entries(
        canary.lines,
      )
        .map(([line, amount]) => `${line} ${amount.toFixed(3)}`)
        .join(', ')}: ${usd(canary.usd)} USD a month.`,
    );
    expect(canary.usd).toBeLessThanOrEqual(0.5);
  });

  test('docs/deploy.md gives its cadence and its figure', () => {
    expectLine(
      'deploy.md',
      `the canary: a run every ${canaryCadence.checkEveryMinutes} minutes, a send every ${canaryCadence.sendEveryMinutes} (${canary.sends} e-mails)`,
    );
    expectLine('deploy.md', new RegExp(`\\| the canary: [^|]*\\| ${escape(usd(canary.usd))} USD +\\|`));
  });
});
