/**
 * The stack's monitoring wiring, on the whole product (synthesized once): what only the product
 * can show, each alarm family itself being tested in test/infra/constructs/monitoring/.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { alarmsOf } from './support/alarms';
import { createTestApp, resourceByPrefix } from './support/synth';

type Dimension = { Name: string; Value: unknown };
type Query = { MetricStat?: { Metric: { MetricName: string; Dimensions?: Dimension[] } } };
type PolicyStatement = { Action: string | string[]; Resource: unknown };

const template = Template.fromStack(createTestApp().stack);

describe('the monitoring of the product', () => {
  test('notifies the alarm topic from all 33 alarms, when they fire and when they are OK again', () => {
    const topicId = resourceByPrefix(template, 'AWS::SNS::Topic', 'MonitoringAlarmTopic').logicalId;
    const alarms = alarmsOf(template);
    expect(alarms).toHaveLength(33);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId }]);
    }
  });

  test('alarms on throttles and system errors of both tables over every operation the functions may call', () => {
    const granted = new Map<string, Set<string>>();
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
      for (const statement of (policy.Properties.PolicyDocument as { Statement: PolicyStatement[] }).Statement) {
        const resource = JSON.stringify(statement.Resource);
        const tableId = /"(Data\w+Table\w+)","Arn"/.exec(resource)?.[1];
        if (!tableId || resource.includes('/index/')) continue;
        for (const action of [statement.Action].flat().filter((action) => action.startsWith('dynamodb:'))) {
          granted.set(tableId, new Set([...(granted.get(tableId) ?? []), action.replace('dynamodb:', '')]));
        }
      }
    }
    // The e-mail index's Query counts as the table's.
    granted.get(resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').logicalId)!.add('Query');
    expect(granted.size).toBe(2);
    for (const [tableId, operations] of granted) {
      for (const metricName of ['ThrottledRequests', 'SystemErrors']) {
        const alarmed = alarmsOf(template)
          .map((alarm) => ((alarm.Properties.Metrics ?? []) as Query[]).flatMap(({ MetricStat }) => MetricStat ?? []))
          .filter(
            (stats) =>
              stats.length > 0 &&
              stats.every(
                ({ Metric }) =>
                  Metric.MetricName === metricName &&
                  JSON.stringify(Metric.Dimensions?.find(({ Name }) => Name === 'TableName')?.Value) ===
                    JSON.stringify({ Ref: tableId }),
              ),
          );
        expect({ tableId, metricName, alarms: alarmed.length }).toEqual({ tableId, metricName, alarms: 1 });
        const alarmedOperations = new Set(
          alarmed[0].map(({ Metric }) => Metric.Dimensions?.find(({ Name }) => Name === 'Operation')?.Value),
        );
        expect(alarmedOperations).toEqual(operations);
      }
    }
  });

  test('outputs the console URL of its one dashboard', () => {
    const dashboard = resourceByPrefix(template, 'AWS::CloudWatch::Dashboard', 'MonitoringDashboard');
    const url = JSON.stringify(template.findOutputs('DashboardUrl').DashboardUrl.Value);
    expect(url).toContain('#dashboards/dashboard/');
    expect(url).toContain(`{"Ref":"${dashboard.logicalId}"}`);
  });
});
