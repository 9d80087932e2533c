/**
 * What each function's metrics service reports, built from the catalogue: its route's `metrics`
 * (outcome, failure metric, the refusals of its own) and the failure kinds that list the route among
 * their causes (their failure metric kinds and refusals). The functions count by it
 * (`lambdas/runtime/metrics.ts`); the dashboard and the product alarms graph and page on it.
 */

import {
  failureMetricKinds,
  refusalMetrics,
  type FailureMetricKind,
  type FailureMetricName,
  type FunctionService,
  type OutcomeMetric,
  type RefusalKind,
} from '../../observability/product-metrics';
import { causesOf, failureKinds } from './failures';
import type { FailureCatalogue } from './failure-kind';
import { productRouteList, type ProductRoute } from './routes';

export interface ServiceMetrics {
  readonly service: FunctionService;
  /** The funnel's step it counts. */
  readonly outcome: OutcomeMetric;
  /** Its failures count under this metric, with a `kind`. */
  readonly failureMetric: FailureMetricName;
  /** The failure metric kinds it can report, in product-metrics.ts's order. */
  readonly failureMetricKinds: readonly FailureMetricKind[];
  /** The refusals it can report, in product-metrics.ts's order. */
  readonly refusals: readonly RefusalKind[];
}

/**
 * Each metrics service, from the routes that own one. `routes` and `catalogue` are the real ones
 * unless a test passes copies.
 */
export function serviceMetricsOf(
  routes: readonly ProductRoute<string>[] = productRouteList,
  catalogue: FailureCatalogue = failureKinds,
): Readonly<Partial<Record<FunctionService, ServiceMetrics>>> {
  const services: Partial<Record<FunctionService, ServiceMetrics>> = {};
  for (const route of routes) {
    if (!route.metrics) continue;
    const metrics = Object.values(catalogue)
      .filter((spec) => causesOf(spec, route).length > 0)
      .map((spec) => spec.metric);
    const failures = new Set(metrics.flatMap((metric) => (metric && 'failure' in metric ? [metric.failure] : [])));
    const refusals = new Set([
      ...metrics.flatMap((metric) => (metric && 'refusal' in metric ? [metric.refusal] : [])),
      ...route.metrics.otherRefusals,
    ]);
    const service = route.logService as FunctionService;
    services[service] = {
      service,
      outcome: route.metrics.outcome,
      failureMetric: route.metrics.failureMetric,
      failureMetricKinds: failureMetricKinds.filter((kind) => failures.has(kind)),
      refusals: refusalMetrics.filter((refusal) => refusals.has(refusal)),
    };
  }
  return services;
}

const services = serviceMetricsOf();

/** What `service` reports; every service a route emits under is some route's own. */
export function serviceMetrics(service: FunctionService): ServiceMetrics {
  const metrics = services[service];
  if (!metrics) throw new Error(`No route owns the metrics service ${service}`);
  return metrics;
}
