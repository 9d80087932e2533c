/**
 * The three tables keep their fixed names, `Retain` and deletion protection, so a failed first
 * create leaves them behind, and the next create stops on "already exists". Found while the stack
 * does not exist yet, they need `cdk deploy --import-existing-resources`, which adopts them.
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
  for (const table of productTables) {
    try {
      await dynamoDb.send(new DescribeTableCommand({ TableName: table }));
      found.push(table);
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
  return {
    name,
    status: 'FAIL',
    detail: `${found.join(' and ')} already exist in ${region} while the stack ${stackName} does not: a failed first deploy left them (they are retained), and a plain deploy stops on "already exists"`,
    fix:
      `npx cdk deploy --import-existing-resources ${deployArguments}`.trimEnd() +
      ' (adopts them into the stack, data kept).',
  };
}
