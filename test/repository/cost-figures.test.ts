/**
 * The figures docs/deploy.md and docs/operate.md give for a stage at rest, computed from the
 * synthesized stacks of a stage (the product stack in eu-west-1 and its us-east-1 edge stack): the
 * number of alarms, the metrics they watch (CloudWatch bills each metric of an alarm, 0.10 USD a
 * month; a metric-math expression is free), the KMS keys (1 USD a month each) and the origin
 * secret (0.40 USD a month). A new alarm or key changes the numbers, and this test names the docs'
 * line to update.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { readDoc } from '../support/docs';
import { createTestApp } from '../infra/support/synth';

const usdPerAlarmMetric = 0.1;
const usdPerKey = 1;
const usdPerSecret = 0.4;

interface AlarmProperties {
  readonly Metrics?: readonly { readonly MetricStat?: unknown }[];
}

function stageAtRest() {
  const { stack, edgeMonitoringStack } = createTestApp({
    env: { account: '111111111111', region: 'eu-west-1' },
    context: { senderDomain: 'example.com', alarmEmail: 'ops@example.com' },
  });
  const templates = [stack, edgeMonitoringStack!].map((s) => Template.fromStack(s));
  const alarms = templates.flatMap(
    (template) => Object.values(template.findResources('AWS::CloudWatch::Alarm')) as { Properties: AlarmProperties }[],
  );
  const metrics = alarms
    .map(({ Properties }) => (Properties.Metrics ? Properties.Metrics.filter((m) => m.MetricStat).length : 1))
    .reduce((sum, count) => sum + count, 0);
  const keys = templates.map((t) => Object.keys(t.findResources('AWS::KMS::Key')).length).reduce((a, b) => a + b, 0);
  const secrets = templates
    .map((t) => Object.keys(t.findResources('AWS::SecretsManager::Secret')).length)
    .reduce((a, b) => a + b, 0);
  return { alarms: alarms.length, metrics, keys, secrets };
}

const usd = (amount: number) => amount.toFixed(2);

describe('the figures of a stage at rest', () => {
  const figures = stageAtRest();
  const alarmsUsd = figures.metrics * usdPerAlarmMetric;
  const totalUsd = alarmsUsd + figures.keys * usdPerKey + figures.secrets * usdPerSecret;

  test("docs/deploy.md's table gives the number of alarms and their cost", () => {
    expect(readDoc('deploy.md')).toMatch(
      new RegExp(
        `\\| ${figures.alarms} CloudWatch alarms \\(${figures.metrics} metrics\\) +\\| about ${usd(alarmsUsd).replace('.', '\\.')} USD +\\|`,
      ),
    );
  });

  test("docs/deploy.md's table gives the keys", () => {
    expect(readDoc('deploy.md')).toMatch(
      new RegExp(`\\| ${figures.keys} KMS keys[^|]*\\| ${figures.keys * usdPerKey} USD +\\|`),
    );
  });

  test('docs/deploy.md gives the total a stage costs at rest', () => {
    expect(readDoc('deploy.md')).toContain(`About ${usd(totalUsd)} USD a month per stage`);
  });

  test('docs/operate.md gives the same number of alarms and metrics', () => {
    expect(readDoc('operate.md')).toContain(
      `${figures.alarms} alarms watching ${figures.metrics} metrics (the two tables' alarms sum their operations) at 0.10 USD each, about ${usd(alarmsUsd)} USD a month`,
    );
  });
});
