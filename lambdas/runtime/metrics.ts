/**
 * The functions' metrics, in CloudWatch embedded metric format (Powertools Metrics): one JSON
 * line on stdout per invocation, which CloudWatch Logs turns into metrics. No API call, so no
 * latency and no IAM permission. Names and dimensions: `core/observability/product-metrics.ts`.
 *
 * Which failure or refusal a typed error stands for is the failure catalogue's
 * (`core/api/catalogue/failures.ts`), as its status is; a handler only says what happened.
 */

import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { failureKinds, type FailureMetric } from '../../core/api/catalogue/failures';
import { serviceMetrics } from '../../core/api/catalogue/service-metrics';
import {
  metricDimensions,
  metricsNamespace,
  type OutcomeMetric,
  type FunctionService,
  type NoticeMetric,
  type RefusalKind,
  type VisitMetric,
  visitService,
} from '../../core/observability/product-metrics';
import { failureKindOf } from './errors';

/** What a failed request counts as: a refusal, a failure of some kind, or nothing (the visitor's own input). */
export type FailureCount = FailureMetric;

/** Which metric a typed error counts towards: the catalogue's entry for its kind. */
export function failureCountOf(error: unknown): FailureCount {
  return failureKinds[failureKindOf(error)].metric;
}

/** One function's metrics: count what happened, and flush once per invocation. */
export class ProductMetrics {
  private readonly metrics: Metrics;

  constructor(readonly service: FunctionService) {
    this.metrics = new Metrics({ namespace: metricsNamespace, serviceName: service });
  }

  countOutcome(metric: OutcomeMetric): void {
    this.metrics.addMetric(metric, MetricUnit.Count, 1);
  }

  countRefusal(kind: RefusalKind): void {
    this.metrics.addMetric(kind, MetricUnit.Count, 1);
  }

  /** Something let pass but worth graphing (a recipient-domain lookup that failed open). */
  countNotice(metric: NoticeMetric): void {
    this.metrics.addMetric(metric, MetricUnit.Count, 1);
  }

  /** Counts the refusal or failure `error` stands for; nothing for a visitor's malformed request. */
  countFailure(error: unknown): void {
    const count = failureCountOf(error);
    if (count === null) return;
    if ('refusal' in count) {
      this.countRefusal(count.refusal);
      return;
    }
    // An invocation has one outcome, so `kind` applies to this metric alone.
    this.metrics.addDimension(metricDimensions.kind, count.failure);
    this.metrics.addMetric(serviceMetrics(this.service).failureMetric, MetricUnit.Count, 1);
  }

  /**
   * The handler with a ColdStart count on a container's first invocation and one flush of
   * everything counted when it returns or throws.
   */
  instrument<Event, Result>(
    handler: (event: Event, context?: Context) => Promise<Result>,
  ): (event: Event, context?: Context) => Promise<Result> {
    return async (event, context) => {
      this.metrics.captureColdStartMetric(context?.functionName);
      try {
        return await handler(event, context);
      } finally {
        // Without a check Powertools warns on every invocation that counted nothing (a 400).
        if (this.metrics.hasStoredMetrics()) this.metrics.publishStoredMetrics();
      }
    };
  }
}

/** The visit function's counts (`visitMetrics`), flushed once per invocation. */
export class VisitMetrics {
  private readonly metrics = new Metrics({ namespace: metricsNamespace, serviceName: visitService });

  count(metric: VisitMetric): void {
    this.metrics.addMetric(metric, MetricUnit.Count, 1);
  }

  flush(): void {
    if (this.metrics.hasStoredMetrics()) this.metrics.publishStoredMetrics();
  }
}
