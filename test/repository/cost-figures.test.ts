/**
 * What a stage costs at rest (no traffic), computed from the synthesized templates of a default
 * synth in us-east-1 with AWS's own list prices, dated, each with its source: the alarms (each
 * metric an alarm reads, a metric-math alarm's every metric, a composite alarm), the dashboard
 * (free within 50 metrics), the keys and their rotations, the secret, and the web ACL beside it.
 * docs/deploy.md and docs/operate.md give the figures this test prints; a new alarm, metric or key
 * changes them and this test names the line to update. Every USD figure on those two pages must be
 * one it computes (or a list price of the table): a figure nothing computes fails, quoted.
 */
import { defaultDailySendBudget } from '../../core/config/function-environment';
import { cheatSheetPdfForTests } from '../support/cheat-sheet-pdf';
import { expectDocText, readDoc } from '../support/docs';
import { priceTable } from '../support/price-table';
import { leadCost, leadPrices } from '../support/lead-cost';
import { canaryCadence } from '../../core/config/canary-cadence';
import {
  atRest,
  canaryAtRest,
  canaryRoutes,
  funnelMetrics,
  funnelPer10000Visits,
  productMetricsCount,
  routeLevelMetricsPerRoute,
  templatesOf,
} from '../support/stage-cost';

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

describe('every USD figure in docs/operate.md and docs/deploy.md', () => {
  const p = priceTable;
  const payAsYouGo = atRest();
  const freePlan = atRest({ pricingPlan: 'free' });
  const canary = canaryAtRest();
  const resources = templatesOf({});
  /** The alarm metrics of the alarms whose name ends with `suffix` (an objective's page and ticket). */
  const alarmMetricsOf = (pattern: RegExp) =>
    resources
      .filter(({ Type, Properties }) => Type === 'AWS::CloudWatch::Alarm' && pattern.test(String(Properties.AlarmName)))
      .map(({ Properties }) => (Properties.Metrics as { MetricStat?: unknown }[] | undefined) ?? [{ MetricStat: 1 }])
      .flatMap((metrics) => metrics.filter((metric) => metric.MetricStat)).length * p.alarmMetric.usd;
  const [apiStage] = resources.filter(({ Type }) => Type === 'AWS::ApiGatewayV2::Stage');
  const routes = Object.keys(apiStage.Properties.RouteSettings as object).length;
  const objectives = ['Availability', 'Delivery', 'Latency'];

  /** What the tests compute, from the templates and the price table, and the list prices themselves. */
  const computed: Record<string, number> = {
    ...Object.fromEntries(
      JSON.stringify(p)
        .match(/"[A-Za-z0-9]*[uU]sd":[\d.e-]+/g)!
        .map((entry, index) => [`price ${index}`, Number(entry.split(':')[1])]),
    ),
    'at-rest budget': 5,
    'a key from its third year': p.key.usd + p.key.paidRotations * p.key.rotationUsd,
    'the alarms': payAsYouGo.alarmsUsd,
    'the free alarm metrics': payAsYouGo.freeTierUsd,
    'the alarms after the free alarm metrics': payAsYouGo.alarmsUsd - payAsYouGo.freeTierUsd,
    'the web ACL': payAsYouGo.webAclUsd,
    ...Object.fromEntries(
      [payAsYouGo.beforeWebAcl, payAsYouGo.beforeWebAclFreeTier, freePlan.allInListPrice, freePlan.allIn]
        .flat()
        .map((figure, index) => [`at rest ${index}`, figure]),
    ),
    'at rest with the canary': payAsYouGo.beforeWebAcl[0] + canary.usd - p.alarmMetric.usd,
    'as deployed, with the canary': payAsYouGo.allInListPrice[0] + canary.usd - p.alarmMetric.usd,
    'the canary': canary.usd,
    "the canary's e-mails": canary.lines.email,
    "the canary's e-mails at a send every run": canaryAtRest({ checkEveryMinutes: 5, sendEveryMinutes: 5 }).lines.email,
    ...Object.fromEntries(
      objectives.map((o) => [`${o}'s page and ticket`, alarmMetricsOf(new RegExp(`Slo\\w+Burn-${o}$`))]),
    ),
    "the objectives' alarms": alarmMetricsOf(/Slo\w+Burn-/),
    // The workbook's short windows, left out: three window alarms of two metrics an objective and a composite.
    "the objectives' short windows": objectives.length * (3 * 2 * p.alarmMetric.usd + p.compositeAlarm.usd),
    // The edge stack: one alarm of two metrics and its topic's key (operations-facts.test.ts checks both).
    "the edge stack's alarm": 2 * p.alarmMetric.usd,
    "the edge stack's extras": 2 * p.alarmMetric.usd + p.key.usd,
    'route-level metrics, a request on each route every hour': routes * routeLevelMetricsPerRoute * p.customMetric.usd,
    "route-level metrics, the canary's routes": canaryRoutes * routeLevelMetricsPerRoute * p.customMetric.usd,
    "the funnel's metrics at a reader an hour": funnelMetrics.length * p.customMetric.usd,
    "the functions' metrics, every one every hour": productMetricsCount() * p.customMetric.usd,
    'the funnel per 10,000 visits': funnelPer10000Visits().usd,
    "the mail provider's option at rest: its secret and its dead-letter alarm": p.secret.usd + p.alarmMetric.usd,
  };

  test.each(['operate.md', 'deploy.md'])('in docs/%s is computed here or a list price', (page) => {
    const figures = [
      ...readDoc(page)
        .replace(/\s+/g, ' ')
        .matchAll(/(?<![\w.])-?(\d+(?:\.\d+)?) USD/g),
    ];
    expect(figures.length).toBeGreaterThan(0);
    const unknown = figures
      .filter(({ 1: figure }) => !Object.values(computed).some((value) => Math.abs(value - Number(figure)) < 0.005))
      .map(
        ({ 0: phrase, index }) =>
          `${phrase} (…${readDoc(page)
            .replace(/\s+/g, ' ')
            .slice(Math.max(0, index! - 60), index)})`,
      );
    expect(unknown).toEqual([]);
  });
});
