/**
 * The tables of `core/data/tables.ts` as DynamoDB CreateTable requests, for the local emulator
 * (and the tests that start it). TTL is a cloud-only setting: dynalite has none, and nothing
 * locally depends on expired items disappearing.
 */

import type { CreateTableCommandInput, KeySchemaElement } from '@aws-sdk/client-dynamodb';
import type { KeyAttribute, TableDefinition } from '../core/data/tables';

function keySchema(partitionKey: KeyAttribute, sortKey?: KeyAttribute): KeySchemaElement[] {
  return [
    { AttributeName: partitionKey.name, KeyType: 'HASH' },
    ...(sortKey ? [{ AttributeName: sortKey.name, KeyType: 'RANGE' as const }] : []),
  ];
}

export function createTableInput(table: TableDefinition): CreateTableCommandInput {
  const keys = [table.partitionKey, ...table.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey])];
  const attributeNames = [...new Set(keys.filter((key) => key !== undefined).map((key) => key.name))];
  return {
    TableName: table.name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: attributeNames.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: keySchema(table.partitionKey),
    ...(table.globalIndexes.length > 0 && {
      GlobalSecondaryIndexes: table.globalIndexes.map((index) => ({
        IndexName: index.name,
        KeySchema: keySchema(index.partitionKey, index.sortKey),
        Projection:
          index.projection === 'all'
            ? { ProjectionType: 'ALL' }
            : index.projection === 'keys-only'
              ? { ProjectionType: 'KEYS_ONLY' }
              : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.include] },
      })),
    }),
  };
}
