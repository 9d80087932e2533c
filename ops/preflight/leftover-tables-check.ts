/**
 * The three kept tables keep their fixed names, `Retain` and deletion protection, so they outlive the
 * stack: after a failed first create, and after a deliberate `cdk destroy`. The next create stops
 * on "already exists". Found while the stack does not exist, each table is read before anything is
 * said about it (DescribeTable's ItemCount and encryption key, KMS DescribeKey's key state):
 *
 * - a table that holds items, or whose key is not pending deletion, or that cannot be read, may
 *   hold leads: the fix is only ever the adopt command (`cdk deploy --import-existing-resources`,
 *   data kept), after cancelling the key's deletion when it is scheduled;
 * - only when every table found is empty AND under a key pending deletion (what a rolled-back
 *   create leaves: it scheduled the key's deletion, RetainExceptOnCreate, and nothing was written)
 *   does the fix delete them, so a retry creates a new key and new tables.
 *
 * ItemCount is refreshed about every six hours (DynamoDB's DescribeTable reference), so 0 alone
 * never allows the delete: the key's pending deletion must say the create was rolled back too.
 */

import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import { keptTables } from '../../core/data/tables';
import { describeError, isNotFound } from './aws-errors';
import type { CheckResult } from './check-result';
import { isFirstDeploy, type StackState } from './stack-check';

/**
 * The kept tables only: the funnel visitors' table is deleted with the stack (a rolled-back create
 * included), so it never outlives it.
 */
export const productTables: readonly string[] = keptTables.map(({ name }) => name);

/** What the preflight learnt of one leftover table. */
export interface LeftoverTable {
  readonly name: string;
  /** DynamoDB's ItemCount (refreshed about every six hours). */
  readonly itemCount: number;
  /** The customer managed key's ARN; undefined under AWS's own key. */
  readonly key?: string;
  /** KMS's KeyState (`Enabled`, `PendingDeletion`…), or `unknown` when it could not be read. */
  readonly keyState?: string;
}

export interface LeftoverTablesClients {
  readonly dynamoDb: DynamoDBClient;
  readonly kms: KMSClient;
}

export async function checkLeftoverTables(
  clients: LeftoverTablesClients,
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
  const found: LeftoverTable[] = [];
  const keyStates = new Map<string, string>();
  for (const table of productTables) {
    try {
      const { Table } = await clients.dynamoDb.send(new DescribeTableCommand({ TableName: table }));
      const key = Table?.SSEDescription?.KMSMasterKeyArn;
      if (key && !keyStates.has(key)) keyStates.set(key, await keyStateOf(clients.kms, key));
      found.push({
        name: table,
        itemCount: Table?.ItemCount ?? 0,
        ...(key && { key, keyState: keyStates.get(key) }),
      });
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
  const described = found.map(describeTable).join('; ');
  const leftover = `${found.map((t) => t.name).join(' and ')} already exist in ${region} while the stack ${stackName} does not (they are retained), and a plain deploy stops on "already exists": ${described}`;
  const deploy = (extra: string) => `npx cdk deploy ${extra}${deployArguments}`.trimEnd();
  if (found.every(isRolledBackCreate)) {
    return {
      name,
      status: 'FAIL',
      detail: `${leftover}. Every one is empty and under a key pending deletion: a rolled-back first create left them, and a retry's functions could not read them (the key's policy names roles that no longer exist)`,
      fix:
        found
          .map(
            (table) =>
              `aws dynamodb update-table --region ${region} --table-name ${table.name} --no-deletion-protection-enabled && aws dynamodb delete-table --region ${region} --table-name ${table.name}`,
          )
          .join(' && ') + `, then ${deploy('')}: a new key and new tables.`,
    };
  }
  const pendingKeys = [...keyStates].filter(([, state]) => state === 'PendingDeletion').map(([key]) => key);
  const cancel = pendingKeys
    .map(
      (key) =>
        `aws kms cancel-key-deletion --region ${region} --key-id ${key} && aws kms enable-key --region ${region} --key-id ${key} && `,
    )
    .join('');
  return {
    name,
    status: 'FAIL',
    detail: `${leftover}. They may hold leads: adopt them, never delete them`,
    fix: `${cancel}${deploy('--import-existing-resources ')} (adopts them into the stack, data kept${pendingKeys.length > 0 ? '; the key stops being deleted first' : ''}).`,
  };
}

/** Empty, and under a customer managed key a rolled-back create scheduled for deletion. */
function isRolledBackCreate(table: LeftoverTable): boolean {
  return table.itemCount === 0 && table.keyState === 'PendingDeletion';
}

function describeTable(table: LeftoverTable): string {
  const items = `${table.itemCount} item${table.itemCount === 1 ? '' : 's'}`;
  return table.key ? `${table.name} ${items}, key ${table.key} ${table.keyState}` : `${table.name} ${items}, AWS's key`;
}

/** The key's state, or `unknown` when KMS will not say (the table is then treated as holding leads). */
async function keyStateOf(kms: KMSClient, key: string): Promise<string> {
  try {
    const { KeyMetadata } = await kms.send(new DescribeKeyCommand({ KeyId: key }));
    return KeyMetadata?.KeyState ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
