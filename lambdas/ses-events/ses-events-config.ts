/**
 * The SES events function's configuration: the contract's table variables, each defaulting to the
 * table's fixed name (the local twin's), so the function runs with no variable set.
 */

import { sendCheatSheetVariables } from '../../core/config/function-environment';
import { limitCountersTableName, tableName } from '../../core/data/tables';

export interface SesEventsConfig {
  readonly tableName: string;
  readonly limitCountersTableName: string;
}

export function readSesEventsConfig(env: Readonly<Record<string, string | undefined>>): SesEventsConfig {
  return {
    tableName: env[sendCheatSheetVariables.tableName]?.trim() || tableName,
    limitCountersTableName: env[sendCheatSheetVariables.limitCountersTableName]?.trim() || limitCountersTableName,
  };
}
