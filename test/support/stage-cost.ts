/**
 * What a stage costs, computed from its synthesized templates and the price table
 * (test/support/price-table.ts): at rest, its own traffic (the canary's; the funnel's per 10,000
 * visits) and the per-request metrics. test/repository/cost-figures.test.ts checks the pages' figures.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { catalogueFunctions } from '../../core/api/catalogue/functions';
import { serviceMetricsOf } from '../../core/api/catalogue/service-metrics';
import { noticeMetrics, outcomeMetrics, visitMetrics } from '../../core/observability/product-metrics';
import { canaryCadence } from '../../core/config/canary-cadence';
import { Template } from 'aws-cdk-lib/assertions';
import { createTestApp } from '../infra/support/synth';
import type { TemplateResource } from './lead-cost';
import { priceTable } from './price-table';

/**
 * What the canary (lambdas/canary/) adds at rest, a month of 30 days at its cadence
 * (core/config/canary-cadence.ts, unless another is given): its alarm metric (the 1-hour window reads its Errors), the
 * simulator's e-mails, its runs and the functions, routes and requests each run calls. A run took
 * about 1 s on the local twin, proof of work included (test/lambdas/canary/handler.test.ts); it is
 * counted at 2 s, for the round trips through CloudFront, and the functions it calls at 0.3 s each.
 */
export function canaryAtRest(
  cadence: { readonly checkEveryMinutes: number; readonly sendEveryMinutes: number } = canaryCadence,
) {
  const p = priceTable;
  const runs = (30 * 24 * 60) / cadence.checkEveryMinutes;
  const sends = (30 * 24 * 60) / cadence.sendEveryMinutes;
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

/**
 * The functions' own metrics (embedded metric format) there can be, each a custom metric: every
 * outcome, failure kind and refusal of each metrics service, the notices, the unsent check's gauge,
 * the visit counts, and a ColdStart for each handler Powertools instruments (`.instrument(`).
 */
export function productMetricsCount(): number {
  const coldStarts = readdirSync('lambdas').flatMap((folder) => {
    const handler = `lambdas/${folder}/handler.ts`;
    return existsSync(handler) ? [...readFileSync(handler, 'utf8').matchAll(/\.instrument\(/g)] : [];
  }).length;
  const services = Object.values(serviceMetricsOf());
  return (
    services.reduce((sum, s) => sum + 1 + s.failureMetricKinds.length + s.refusals.length, 0) +
    noticeMetrics.length +
    1 + // UnsentRequests
    Object.keys(visitMetrics).length +
    coldStarts
  );
}

/** The funnel's four a reader every hour publishes every hour (the canary's requests count nothing). */
export const funnelMetrics = [
  outcomeMetrics.requestSaved,
  outcomeMetrics.cheatSheetSent,
  visitMetrics.visit,
  visitMetrics.uniqueVisitor,
] as const;

/** API Gateway's route-level metrics of an HTTP API, each route and method: Count, 4xx, 5xx, Latency, IntegrationLatency, DataProcessed. */
export const routeLevelMetricsPerRoute = 6;

/** The routes the canary calls: each run's save, each sending run's challenge and send. */
export const canaryRoutes = 3;

interface Resource {
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
}

/** Each context's templates, synthesized once for the test file (the lead's cost reads the default's too). */
const synthesized = new Map<string, TemplateResource[]>();

export function templatesOf(context: Record<string, string>): TemplateResource[] {
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
