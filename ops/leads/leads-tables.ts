/**
 * Which tables the leads tool reads: `TABLE_NAME`, `SEND_QUOTA_TABLE_NAME` and `IDEMPOTENCY_TABLE_NAME` (the functions'
 * own variable names, defaulting to the tables' fixed names), or with `--stack NAME` the
 * deployed stack's `TableName`, `SendQuotaTableName` and `IdempotencyTableName` outputs.
 */

import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { sendCheatSheetVariables } from '../../core/config/function-environment';
import { idempotencyTableName, limitCountersTableName, tableName } from '../../core/data/tables';

export interface LeadsTables {
  /** `cheat_sheet_requests`: one item per request. */
  readonly requests: string;
  /** `cheat_sheet_send_quotas`: the daily cap's counters. */
  readonly limitCounters: string;
  /**
   * `cheat_sheet_idempotency`: the Idempotency-Key records, which erase removes. Undefined for a
   * stack deployed before it had its output: erase then reports them not removed.
   */
  readonly idempotency?: string;
}

/** The stack outputs naming the tables (infra/stack.ts). */
export const tableOutputs = {
  requests: 'TableName',
  limitCounters: 'SendQuotaTableName',
  idempotency: 'IdempotencyTableName',
} as const;

export function tablesFromEnvironment(env: NodeJS.ProcessEnv): LeadsTables {
  return {
    requests: env[sendCheatSheetVariables.tableName] || tableName,
    limitCounters: env[sendCheatSheetVariables.limitCountersTableName] || limitCountersTableName,
    idempotency: env[sendCheatSheetVariables.idempotencyTableName] || idempotencyTableName,
  };
}

/** A stack that cannot be read or lacks an output: the message says which. */
export class StackOutputsError extends Error {}

/** Every output of the stack, by key. */
export async function readStackOutputs(
  client: CloudFormationClient,
  stackName: string,
): Promise<Record<string, string>> {
  try {
    const { Stacks = [] } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    return Object.fromEntries(
      (Stacks[0]?.Outputs ?? []).flatMap(({ OutputKey, OutputValue }) =>
        OutputKey && OutputValue ? [[OutputKey, OutputValue]] : [],
      ),
    );
  } catch (error) {
    throw new StackOutputsError(
      `Could not read the stack ${stackName}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

export async function tablesFromStack(client: CloudFormationClient, stackName: string): Promise<LeadsTables> {
  const outputs = await readStackOutputs(client, stackName);
  const requests = outputs[tableOutputs.requests];
  const limitCounters = outputs[tableOutputs.limitCounters];
  if (!requests || !limitCounters) {
    throw new StackOutputsError(
      `The stack ${stackName} has no ${tableOutputs.requests} and ${tableOutputs.limitCounters} outputs: is it this product's stack?`,
    );
  }
  return { requests, limitCounters, idempotency: outputs[tableOutputs.idempotency] };
}
