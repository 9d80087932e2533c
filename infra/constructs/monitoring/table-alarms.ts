import { TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { tableId, tableOperationsSum, type MonitoredTable } from './metrics';
import { alarmRunbook, describeAlarm } from './runbook';

export interface TableAlarmsProps extends AlarmFamilyProps {
  /** The tables, with the operations the functions call on each. */
  readonly tables: readonly MonitoredTable[];
}

/**
 * Per table: throttles and AWS-side system errors, summed over the operations the functions call.
 * Ids and names start with the table's construct id: `RequestsTableThrottles`.
 */
export class TableAlarms extends AlarmFamily {
  constructor(scope: Construct, id: string, props: TableAlarmsProps) {
    super(scope, id, props);
    for (const { table, operations } of props.tables) {
      const name = tableId(table);
      // On demand, a throttle means a hot key or the table's account limit: a reader's request failed.
      this.addAlarm(`${name}Throttles`, {
        metric: tableOperationsSum(table, 'ThrottledRequests', operations),
        threshold: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: describeAlarm(
          `DynamoDB throttled requests on ${name}: readers were asked to retry.`,
          alarmRunbook.TableThrottles,
        ),
      });
      // AWS-side 500s; the SDK retries once, so an isolated one is absorbed.
      this.addAlarm(`${name}SystemErrors`, {
        metric: tableOperationsSum(table, 'SystemErrors', operations),
        threshold: 3,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: describeAlarm(
          `DynamoDB answered 3 or more system errors in 5 minutes on ${name}: a service problem.`,
          alarmRunbook.TableSystemErrors,
        ),
      });
    }
  }
}
