/**
 * The three tables keep their fixed names, `Retain` and deletion protection, so a failed first
 * create leaves them behind, and the next create stops on "already exists". Found while the stack
 * does not exist yet:
 *
 * - encrypted with a customer managed key (the leads' key), that key is orphaned: the rolled-back
 *   create scheduled its deletion (RetainExceptOnCreate) and its policy names roles that no longer
 *   exist, so a retry's new functions could never read the tables it would import. The tables of
 *   a rolled-back create hold nothing a deployed site wrote: the fix names the key and deletes them;
 * - otherwise (kept by an older deployment, on AWS's key) `cdk deploy --import-existing-resources`
 *   adopts them.
 */

import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { idempotencyTableName, limitCountersTableName, tableName } from '../../core/data/tables';
import { describeError, isNotFound } from './aws-errors';
import type { CheckResult } from './check-result';
import { isFirstDeploy, type StackState } from './stack-check';

export const productTables = [tableName, limitCountersTableName, idempotencyTableName] as const;

export async function checkLeftoverTables(
  dynamoDb: DynamoDBClient,
  {
    region,
    stackName,
    stack,
    deployArguments,
  }: { region: string; stackName: string; stack: StackState; deployArguments: string },
): Promise<CheckResult> {
  const name = 'tables';
  if (!isFirstDeploy(stack)) {
    return { name, status: 'PASS', detail: `${productTables.join(', ')} belong to the existing stack ${stackName}` };
  }
  const found: string[] = [];
  const keys = new Set<string>();
  for (const table of productTables) {
    try {
      const { Table } = await dynamoDb.send(new DescribeTableCommand({ TableName: table }));
      found.push(table);
      const key = Table?.SSEDescription?.KMSMasterKeyArn;
      if (key) keys.add(key);
    } catch (error) {
      if (!isNotFound(error)) {
        return { name, status: 'WARN', detail: `could not read ${table} in ${region}: ${describeError(error)}` };
      }
    }
  }
  if (found.length === 0) {
    return {
      name,
      status: 'PASS',
      detail: `${productTables.join(', ')} do not exist yet in ${region}: the stack creates them`,
    };
  }
  const leftover = `${found.join(' and ')} already exist in ${region} while the stack ${stackName} does not: a failed first deploy left them (they are retained), and a plain deploy stops on "already exists"`;
  if (keys.size > 0) {
    const keyList = [...keys].join(', ');
    return {
      name,
      status: 'FAIL',
      detail: `${leftover}; they are encrypted with the orphaned KMS key ${keyList}, which the rolled-back create scheduled for deletion and whose policy names roles that no longer exist, so a retry's functions could not read them`,
      fix:
        found
          .map(
            (table) =>
              `aws dynamodb update-table --region ${region} --table-name ${table} --no-deletion-protection-enabled && aws dynamodb delete-table --region ${region} --table-name ${table}`,
          )
          .join(' && ') +
        ` (the tables of a rolled-back create are empty), then ${`npx cdk deploy ${deployArguments}`.trimEnd()}: a new key and new tables.`,
    };
  }
  return {
    name,
    status: 'FAIL',
    detail: leftover,
    fix:
      `npx cdk deploy --import-existing-resources ${deployArguments}`.trimEnd() +
      ' (adopts them into the stack, data kept).',
  };
}
