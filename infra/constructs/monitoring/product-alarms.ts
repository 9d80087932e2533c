import { Duration } from 'aws-cdk-lib';
import { failureKindList } from '../../../core/api/catalogue/failures';
import { TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { serviceMetrics } from '../../../core/api/catalogue/service-metrics';
import { outcomeMetrics, type FunctionService, type RefusalKind } from '../../../core/observability/product-metrics';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { fiveMinutes, productMetric, sumOf } from './metrics';
import { alarmRunbook, describeAlarm, failureRunbookOf, pagingFailureKinds } from './runbook';

/** The share of the daily send budget at which the operator is warned, while sends still go out. */
export const defaultBudgetWarningRatio = 0.8;

/** The refusal metrics the catalogue pages on (none today: the caps working as meant are graphed). */
export function pagingRefusals(): {
  readonly refusal: RefusalKind;
  readonly threshold: number;
  readonly reason: string;
  readonly runbook: string;
}[] {
  const refusals = failureKindList.flatMap(({ metric, alarm, runbook }) =>
    alarm !== null && metric !== null && 'refusal' in metric ? [{ refusal: metric.refusal, runbook, ...alarm }] : [],
  );
  return refusals.filter((entry, index) => refusals.findIndex(({ refusal }) => refusal === entry.refusal) === index);
}

export interface ProductAlarmsProps extends AlarmFamilyProps {
  /** The `service` dimensions the functions emit the product's metrics under (core/observability/product-metrics.ts). */
  readonly services: readonly FunctionService[];
  /** The product's daily send budget: the budget alarms read the same value the send function enforces. */
  readonly dailySendBudget: number;
  /** @default defaultBudgetWarningRatio (0.8) */
  readonly budgetWarningRatio?: number;
}

/**
 * The product's own metrics: each failure kind the catalogue pages on, per service that reports it
 * (SaveFailed, SendFailed), and the daily send budget (nearly spent, spent). Only services that
 * send count towards the budget. Thresholds and reasons are the catalogue's (core/api/catalogue/failures.ts).
 */
export class ProductAlarms extends AlarmFamily {
  /** `<failure metric><kind>`: `SendFailedSesRejected` … */
  public readonly failureAlarms: ReadonlyMap<string, Alarm>;
  /** Absent when no service sends. */
  public readonly budgetNearlySpentAlarm?: Alarm;
  public readonly budgetSpentAlarm?: Alarm;

  constructor(scope: Construct, id: string, props: ProductAlarmsProps) {
    super(scope, id, props);
    const { services, dailySendBudget } = props;
    const failureAlarms = new Map<string, Alarm>();
    for (const service of services) {
      const metricName = serviceMetrics(service).failureMetric;
      for (const kind of pagingFailureKinds().filter((k) => serviceMetrics(service).failureMetricKinds.includes(k))) {
        const runbook = failureRunbookOf(kind);
        const { threshold, impact } = runbook;
        const alarmId = `${metricName}${kind}`;
        const alarm = this.addAlarm(alarmId, {
          metric: productMetric(metricName, service, fiveMinutes, kind),
          threshold,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          description: describeAlarm(
            `${service}: ${threshold} or more ${metricName} (${kind}) in 5 minutes. ${impact}`,
            runbook,
          ),
        });
        failureAlarms.set(alarmId, alarm);
      }
    }
    this.failureAlarms = failureAlarms;

    // A refusal the catalogue pages on: summed over the services that report it.
    for (const { refusal, threshold, reason, runbook } of pagingRefusals()) {
      const reporting = services.filter((service) => serviceMetrics(service).refusals.includes(refusal));
      if (reporting.length === 0) continue;
      this.addAlarm(refusal, {
        metric: sumOf(
          reporting.map((service) => productMetric(refusal, service, fiveMinutes)),
          fiveMinutes,
        ),
        threshold,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: describeAlarm(`${threshold} or more ${refusal} in 5 minutes: ${reason}`, {
          severity: 'page',
          reason,
          firstSteps: `the dashboard's refusals graph, ${refusal}.`,
          anchor: runbook.replace(/^#/, ''),
        }),
      });
    }

    // The budget is the whole product's: every function that sends counts towards it.
    const senders = services.filter((service) => serviceMetrics(service).outcome === outcomeMetrics.cheatSheetSent);
    if (senders.length === 0) return;
    const warningAt = Math.ceil(dailySendBudget * (props.budgetWarningRatio ?? defaultBudgetWarningRatio));
    // A one-day period with CloudWatch's sliding evaluation window: the sends of the last 24
    // hours, the same window the budget counts.
    this.budgetNearlySpentAlarm = this.addAlarm('SendBudgetNearlySpent', {
      metric: sumOf(
        senders.map((service) => productMetric(outcomeMetrics.cheatSheetSent, service, Duration.days(1))),
        Duration.days(1),
      ),
      threshold: warningAt,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        `${warningAt} or more cheat sheets sent in 24 hours: the daily send budget of ${dailySendBudget} is nearly spent, then readers are refused (503).`,
        alarmRunbook.SendBudgetNearlySpent,
      ),
    });
    this.budgetSpentAlarm = this.addAlarm('SendBudgetSpent', {
      metric: sumOf(
        services
          .filter((service) => serviceMetrics(service).refusals.includes('SendBudgetRefused'))
          .map((service) => productMetric('SendBudgetRefused', service, fiveMinutes)),
        fiveMinutes,
      ),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: describeAlarm(
        `The daily send budget of ${dailySendBudget} is spent: readers are refused (503) until older sends leave the 24-hour window; their requests are still saved.`,
        alarmRunbook.SendBudgetSpent,
      ),
    });
  }
}
