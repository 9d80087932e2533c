import { Template } from 'aws-cdk-lib/assertions';
import { directCallsAlarmThreshold, failureKindList } from '../../../../core/api/catalogue/failures';
import { productRouteList } from '../../../../core/api/catalogue/routes';
import { ProductAlarms } from '../../../../infra/constructs/monitoring/product-alarms';
import { alarmNamed, alarmsOf } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

function productAlarms(services: Array<'save-request' | 'send-cheat-sheet'>, dailySendBudget = 500) {
  const { stack, alarmAction } = alarmStack();
  new ProductAlarms(stack, 'ProductAlarms', { alarmAction, services, dailySendBudget });
  return Template.fromStack(stack);
}

describe('the product alarms', () => {
  test('page on the first failure where every request fails until someone acts', () => {
    const template = productAlarms(['save-request', 'send-cheat-sheet']);
    for (const name of [
      'SendFailedSenderNotVerified',
      'SendFailedPdfUnavailable',
      'SendFailedMisconfigured',
      'SendFailedUnexpected',
      'SaveFailedMisconfigured',
      'SaveFailedUnexpected',
    ]) {
      expect([name, alarmNamed(template, `First100DaysSite-${name}`).Properties.Threshold]).toEqual([name, 1]);
    }
  });

  test('page on 3 failures in five minutes where one can be a blip', () => {
    const template = productAlarms(['save-request', 'send-cheat-sheet']);
    for (const name of [
      'SendFailedSesRejected',
      'SendFailedSesUnavailable',
      'SendFailedStorageUnavailable',
      'SaveFailedStorageUnavailable',
    ]) {
      expect([name, alarmNamed(template, `First100DaysSite-${name}`).Properties.Threshold]).toEqual([name, 3]);
    }
  });

  test("count a failure kind by the product's metric, its service and kind", () => {
    const alarm = alarmNamed(productAlarms(['send-cheat-sheet']), 'First100DaysSite-SendFailedSesRejected');
    expect(alarm.Properties).toMatchObject({
      Namespace: 'First100DaysSite',
      MetricName: 'SendFailed',
      Dimensions: [
        { Name: 'kind', Value: 'SesRejected' },
        { Name: 'service', Value: 'send-cheat-sheet' },
      ],
      Statistic: 'Sum',
      Period: 300,
    });
  });

  test('cover only the failure kinds a saving service can report, and its direct calls', () => {
    const names = alarmsOf(productAlarms(['save-request'])).map(({ Properties }) => Properties.AlarmName);
    expect(names.sort()).toEqual([
      'First100DaysSite-SaveFailedMisconfigured',
      'First100DaysSite-SaveFailedStorageUnavailable',
      'First100DaysSite-SaveFailedUnexpected',
      'First100DaysSite-UntrustedOrigin',
    ]);
  });

  test("page on direct calls to the API's own address, summed over both services, at a quarter of the smallest route throttle", () => {
    const alarm = alarmNamed(productAlarms(['save-request', 'send-cheat-sheet']), 'First100DaysSite-UntrustedOrigin');
    const summed = (
      alarm.Properties.Metrics as { MetricStat?: { Metric: { MetricName: string; Dimensions: unknown[] } } }[]
    ).flatMap(({ MetricStat }) => (MetricStat ? [MetricStat.Metric] : []));
    expect(summed.map(({ MetricName }) => MetricName)).toEqual(['UntrustedOrigin', 'UntrustedOrigin']);
    expect(alarm.Properties.Threshold).toBe(directCallsAlarmThreshold);
    const smallestRate = Math.min(...productRouteList.map(({ throttle }) => throttle.rateLimit));
    expect(directCallsAlarmThreshold).toBe((smallestRate / 4) * 300);
  });

  test("page on every failure kind the catalogue pages on, at the catalogue's threshold", () => {
    const template = productAlarms(['send-cheat-sheet']);
    const paging = failureKindList.filter((kind) => kind.alarm !== null && kind.metric && 'failure' in kind.metric);
    expect(paging.length).toBeGreaterThan(0);
    for (const kind of paging) {
      const metricKind = (kind.metric as { failure: string }).failure;
      const alarm = alarmNamed(template, `First100DaysSite-SendFailed${metricKind}`);
      expect([kind.name, alarm.Properties.Threshold]).toEqual([kind.name, kind.alarm?.threshold]);
    }
  });

  test("describe a failure alarm with the catalogue's runbook and the operator's first steps", () => {
    const alarm = alarmNamed(productAlarms(['send-cheat-sheet']), 'First100DaysSite-SendFailedSenderNotVerified');
    expect(alarm.Properties.AlarmDescription).toMatch(
      /^Severity: page\. send-cheat-sheet: 1 or more SendFailed \(SenderNotVerified\)/,
    );
    expect(alarm.Properties.AlarmDescription).toContain('First: SES console, Identities');
  });

  test('warn when 80% of the daily send budget went out in 24 hours', () => {
    const alarm = alarmNamed(productAlarms(['send-cheat-sheet'], 2000), 'First100DaysSite-SendBudgetNearlySpent');
    expect(alarm.Properties).toMatchObject({ MetricName: 'CheatSheetSent', Period: 86_400, Threshold: 1600 });
    expect(alarm.Properties.AlarmDescription).toContain('the daily send budget of 2000 is nearly spent');
  });

  test('fire on the first refusal once the daily send budget is spent', () => {
    const alarm = alarmNamed(productAlarms(['send-cheat-sheet']), 'First100DaysSite-SendBudgetSpent');
    expect(alarm.Properties).toMatchObject({ MetricName: 'SendBudgetRefused', Period: 300, Threshold: 1 });
  });
});
