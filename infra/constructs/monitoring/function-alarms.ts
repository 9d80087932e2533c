import { TreatMissingData, type Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { AlarmFamily, type AlarmFamilyProps } from './alarm-family';
import { fiveMinutes } from './metrics';
import { alarmRunbook, describeAlarm } from './runbook';

export interface FunctionAlarmsProps extends AlarmFamilyProps {
  /**
   * Each function, with what the descriptions call it (its logs' `service`) and, for a function
   * that fails on purpose so Lambda retries it (the pause, the SES events, the unsent check), what
   * an Error means for it.
   *
   * @default errorsMean: a crash, a timeout or memory running out (a handler that answers every known failure itself)
   */
  readonly functions: readonly {
    readonly function: IFunction;
    readonly name: string;
    readonly errorsMean?: string;
  }[];
}

/**
 * Per function: throttles and errors. The alarm ids (and names) start with the function's
 * construct id: `SaveRequestFunctionThrottles`, `SaveRequestFunctionErrors`.
 */
export class FunctionAlarms extends AlarmFamily {
  /** By the function's construct id. */
  public readonly throttleAlarms: ReadonlyMap<string, Alarm>;
  /** By the function's construct id. */
  public readonly errorAlarms: ReadonlyMap<string, Alarm>;

  constructor(scope: Construct, id: string, props: FunctionAlarmsProps) {
    super(scope, id, props);
    const throttleAlarms = new Map<string, Alarm>();
    const errorAlarms = new Map<string, Alarm>();
    for (const { function: fn, name: service, errorsMean } of props.functions) {
      const name = fn.node.id;
      // No reserved concurrency: a throttle means the account's pool is exhausted.
      const throttles = this.addAlarm(`${name}Throttles`, {
        metric: fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum' }),
        threshold: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: describeAlarm(
          `Lambda throttled ${service}: the account's concurrency is used up, readers get errors.`,
          alarmRunbook.FunctionThrottles,
        ),
      });
      // The handlers turn every failure they know into a JSON reply, so an Error here is a crash,
      // a timeout or memory running out: the reader got a bare 500.
      const errors = this.addAlarm(`${name}Errors`, {
        metric: fn.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
        threshold: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description: describeAlarm(
          errorsMean ??
            `${service} crashed, timed out or ran out of memory (the handler answers every known failure itself).`,
          alarmRunbook.FunctionErrors,
        ),
      });
      throttleAlarms.set(name, throttles);
      errorAlarms.set(name, errors);
    }
    this.throttleAlarms = throttleAlarms;
    this.errorAlarms = errorAlarms;
  }
}
