import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Operation, Table } from 'aws-cdk-lib/aws-dynamodb';
import { TableAlarms } from '../../../../infra/constructs/monitoring/table-alarms';
import { alarmNamed } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

function tableTemplate() {
  const { stack, alarmAction } = alarmStack();
  const table = new Table(stack, 'RequestsTable', { partitionKey: { name: 'id', type: AttributeType.STRING } });
  new TableAlarms(stack, 'TableAlarms', {
    alarmAction,
    tables: [{ table, operations: [Operation.PUT_ITEM, Operation.QUERY] }],
  });
  return Template.fromStack(stack);
}

type Query = { Id: string; Expression?: string; MetricStat?: { Metric: { Dimensions: unknown[] } } };

describe('the table alarms', () => {
  test('fire on the first throttled request, summed over the operations the functions call', () => {
    const alarm = alarmNamed(tableTemplate(), 'First100DaysSite-RequestsTableThrottles');
    expect(alarm.Properties.Threshold).toBe(1);
    const queries = alarm.Properties.Metrics as Query[];
    expect(queries.find((query) => query.Expression)?.Expression).toBe(
      'FILL(requestsTablePutItem, 0) + FILL(requestsTableQuery, 0)',
    );
    expect(queries.filter((query) => query.MetricStat)).toHaveLength(2);
  });

  test('fire on 3 system errors in five minutes', () => {
    expect(alarmNamed(tableTemplate(), 'First100DaysSite-RequestsTableSystemErrors').Properties.Threshold).toBe(3);
  });
});
