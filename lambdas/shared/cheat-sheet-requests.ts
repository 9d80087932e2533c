/**
 * The `cheat_sheet_requests` table: the only module that speaks DynamoDB. Every SDK failure
 * becomes a StorageUnavailableError (with the SDK error as its cause, for the logs). Only
 * operations dynalite supports: PutItem, UpdateItem, Query.
 */

import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { StorageUnavailableError } from './errors';
import { emailIndex, type CheatSheetRequestItem } from './table-schema';

export interface CheatSheetRequests {
  /** Stores a new, unsent request and returns it. */
  create(request: { name: string; email: string }, requestedAt: Date): Promise<CheatSheetRequestItem>;
  /** The address's requests made at or after `since`, newest first. */
  findSince(email: string, since: Date): Promise<CheatSheetRequestItem[]>;
  /** Flags a request as sent; false if it was not unsent any more (a concurrent send won). */
  markSent(id: string, sentAt: Date): Promise<boolean>;
  /** Stores a send that had no unsent request to flag, so it still counts towards the daily cap. */
  createSent(request: { name: string; email: string }, sentAt: Date): Promise<CheatSheetRequestItem>;
}

function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

async function storage<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new StorageUnavailableError(`DynamoDB ${operation} failed`, { cause: error });
  }
}

export function cheatSheetRequestsTable(client: DynamoDBDocumentClient, tableName: string): CheatSheetRequests {
  async function put(item: CheatSheetRequestItem): Promise<CheatSheetRequestItem> {
    await storage('PutItem', () =>
      client.send(
        new PutCommand({
          TableName: tableName,
          Item: item,
          // A fresh UUID never collides; the condition makes sure nothing is ever overwritten.
          ConditionExpression: 'attribute_not_exists(id)',
        }),
      ),
    );
    return item;
  }

  return {
    create: ({ name, email }, requestedAt) =>
      put({ id: randomUUID(), name, email, cheat_sheet_sent: false, requested_at: requestedAt.toISOString() }),

    createSent: ({ name, email }, sentAt) =>
      put({
        id: randomUUID(),
        name,
        email,
        cheat_sheet_sent: true,
        requested_at: sentAt.toISOString(),
        sent_at: sentAt.toISOString(),
      }),

    async findSince(email, since) {
      const items: CheatSheetRequestItem[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await storage('Query', () =>
          client.send(
            new QueryCommand({
              TableName: tableName,
              IndexName: emailIndex.name,
              KeyConditionExpression: '#email = :email AND #requestedAt >= :since',
              ExpressionAttributeNames: { '#email': emailIndex.partitionKey, '#requestedAt': emailIndex.sortKey },
              ExpressionAttributeValues: { ':email': email, ':since': since.toISOString() },
              ScanIndexForward: false,
              ExclusiveStartKey: startKey,
            }),
          ),
        );
        items.push(...((page.Items ?? []) as CheatSheetRequestItem[]));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return items;
    },

    async markSent(id, sentAt) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id },
            UpdateExpression: 'SET cheat_sheet_sent = :sent, sent_at = :sentAt',
            ConditionExpression: 'attribute_exists(id) AND cheat_sheet_sent = :unsent',
            ExpressionAttributeValues: { ':sent': true, ':unsent': false, ':sentAt': sentAt.toISOString() },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw new StorageUnavailableError('DynamoDB UpdateItem failed', { cause: error });
      }
    },
  };
}
