import { Duration } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import {
  metricDimensions,
  metricsNamespace,
  type FailureMetricKind,
  type FunctionService,
} from '../../../core/observability/product-metrics';

/** The metrics the alarms and the dashboard share, built one way. */

/** CloudFront publishes its metrics in this region only, whatever the stack's region. */
export const cloudFrontMetricsRegion = 'us-east-1';

export const fiveMinutes = Duration.minutes(5);

/** A function behind a route, as the monitoring sees it (the Api construct's functions fit). */
export interface MonitoredFunction {
  readonly function: IFunction;
  /** What alarm descriptions and graphs call it: its logs' `service`. */
  readonly name: string;
  /** The `service` dimensions of the product metrics it emits (core/observability/product-metrics.ts). */
  readonly services: readonly FunctionService[];
  /** The path it answers with `method`. */
  readonly route: string;
  /** Its catalogue entry's method: with `route`, how the dashboard names its latency line. */
  readonly method: string;
  /** Its timeout: past it Lambda ends the invocation and the visitor gets a bare 500. */
  readonly timeout: Duration;
  /** The landing page's visit beacon: on the author's funnel dashboard, not the operator's. @default false */
  readonly beacon?: boolean;
}

export interface MonitoredTable {
  readonly table: ITable;
  /**
   * The operations the functions call on it: DynamoDB reports ThrottledRequests and SystemErrors
   * per operation only, and a metric-math alarm costs per metric, so only these are summed.
   */
  readonly operations: readonly Operation[];
}

/** One of the product's own metrics (core/observability/product-metrics.ts), summed. */
export function productMetric(
  metricName: string,
  service: string,
  period: Duration,
  kind?: FailureMetricKind,
  label?: string,
): Metric {
  return new Metric({
    namespace: metricsNamespace,
    metricName,
    dimensionsMap: {
      [metricDimensions.service]: service,
      ...(kind !== undefined && { [metricDimensions.kind]: kind }),
    },
    statistic: 'Sum',
    period,
    label,
  });
}

/**
 * A DynamoDB metric that exists per operation only (ThrottledRequests, SystemErrors), summed over
 * `operations`; the ids carry the table's name so two tables can share a graph.
 */
export function tableOperationsSum(
  table: ITable,
  metricName: string,
  operations: readonly Operation[],
  label?: string,
): MathExpression {
  const prefix = tableId(table).replace(/^./, (first) => first.toLowerCase());
  const usingMetrics = Object.fromEntries(
    operations.map((operation) => [
      `${prefix}${operation}`,
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: table.tableName, Operation: operation },
        statistic: 'Sum',
        period: fiveMinutes,
      }),
    ]),
  );
  // FILL: an operation with no datapoint counts as 0 rather than blanking the sum.
  const expression = Object.keys(usingMetrics)
    .map((id) => `FILL(${id}, 0)`)
    .join(' + ');
  return new MathExpression({
    expression,
    usingMetrics,
    period: fiveMinutes,
    label: label ?? `${metricName}, ${tableId(table)}`,
  });
}

/** The SES account's own metrics (no dimension). */
export function sesMetric(metricName: string, statistic: string, period: Duration, label?: string): Metric {
  return new Metric({ namespace: 'AWS/SES', metricName, statistic, period, label });
}

export function cloudFrontErrorRate(distribution: IDistribution): Metric {
  return new Metric({
    namespace: 'AWS/CloudFront',
    metricName: '5xxErrorRate',
    dimensionsMap: { DistributionId: distribution.distributionId, Region: 'Global' },
    statistic: 'Average',
    period: fiveMinutes,
  });
}

/** Lambda's concurrency across the account and region (no dimension). */
export function accountConcurrency(label?: string): Metric {
  return new Metric({
    namespace: 'AWS/Lambda',
    metricName: 'ConcurrentExecutions',
    statistic: 'Maximum',
    period: fiveMinutes,
    label,
  });
}

/** `/api/send-cheat-sheet` → `ApiSendCheatSheet`: an id and alarm-name part. */
export function routeId(route: string): string {
  return route
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

/** The product's metrics are per service: functions counting under one service share its alarms. */
export function uniqueServices(functions: readonly MonitoredFunction[]): FunctionService[] {
  return [...new Set(functions.flatMap(({ services }) => services))];
}

/** The table's logical name part: its construct id (`RequestsTable`, `SendQuotaTable`). */
export function tableId(table: ITable): string {
  return table.node.id;
}
