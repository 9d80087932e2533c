/**
 * The request items of the `cheat_sheet_requests` table. Every SDK failure becomes a
 * `storageUnavailable` ProductError (with the SDK error as its cause, for the logs). Only operations
 * dynalite supports: PutItem, UpdateItem, Query. The send function records with UpdateItem alone
 * (its role has no PutItem); the save function only puts.
 */

import { cleanStoredName } from '../../core/documents/greeting-name';
import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ProductError } from './errors';
import { emailIndex, requestExpiryAttribute, type CheatSheetRequestItem } from '../../core/data/tables';

export interface CheatSheetRequests {
  /** Stores a new, unsent request and returns it. */
  create(request: { name: string; email: string }, requestedAt: Date): Promise<CheatSheetRequestItem>;
  /**
   * The address's newest unsent request, whatever its age, or undefined. Reads the e-mail index,
   * which is eventually consistent in the cloud: a request saved a moment ago may not show yet.
   */
  findNewestUnsent(email: string): Promise<CheatSheetRequestItem | undefined>;
  /** Flags a request as sent; false if it was not unsent any more (a concurrent send won). */
  markSent(id: string, sentAt: Date): Promise<boolean>;
  /** Stores a send that had no unsent request to flag, so every send is on record. */
  createSent(request: { name: string; email: string }, sentAt: Date): Promise<CheatSheetRequestItem>;
}

function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

async function storage<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new ProductError('storageUnavailable', `DynamoDB ${operation} failed`, { cause: error });
  }
}

/** How many of the address's requests, newest first, one index page reads. */
const unsentSearchPageSize = 25;
/** Pages read before giving up: an address with 100 newer sent requests has no unsent one worth flagging. */
const unsentSearchMaxPages = 4;

const daySeconds = 24 * 60 * 60;

/** The TTL value: epoch seconds, `days` after `from`. */
export function expiryAfter(from: Date, days: number): number {
  return Math.ceil(from.getTime() / 1000) + days * daySeconds;
}

export interface RequestsTableOptions {
  /**
   * Days after which DynamoDB's TTL deletes a request (`requestRetentionDays`): every item this
   * writes, by the save or the send function, carries its `expires_at`.
   *
   * @default none: requests are kept until erased
   */
  readonly retentionDays?: number;
}

export function cheatSheetRequestsTable(
  client: DynamoDBDocumentClient,
  tableName: string,
  { retentionDays }: RequestsTableOptions = {},
): CheatSheetRequests {
  const expiry = (requestedAt: Date) =>
    retentionDays === undefined ? {} : { [requestExpiryAttribute]: expiryAfter(requestedAt, retentionDays) };
  return {
    async create({ name, email }, requestedAt) {
      const item: CheatSheetRequestItem = {
        id: randomUUID(),
        // What was typed, without control and format characters (greeting-name.ts).
        name: cleanStoredName(name),
        email,
        cheat_sheet_sent: false,
        requested_at: requestedAt.toISOString(),
        ...expiry(requestedAt),
      };
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
    },

    async createSent({ name, email }, sentAt) {
      const item: CheatSheetRequestItem = {
        id: randomUUID(),
        // What was typed, without control and format characters (greeting-name.ts).
        name: cleanStoredName(name),
        email,
        cheat_sheet_sent: true,
        requested_at: sentAt.toISOString(),
        sent_at: sentAt.toISOString(),
        ...expiry(sentAt),
      };
      const expiresAt = item[requestExpiryAttribute];
      // UpdateItem on a new key creates the item: the send role needs no PutItem.
      await storage('UpdateItem', () =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id: item.id },
            UpdateExpression: `SET #name = :name, #email = :email, #sent = :sent, #requestedAt = :requestedAt, #sentAt = :sentAt${
              expiresAt === undefined ? '' : ', #expiresAt = :expiresAt'
            }`,
            ConditionExpression: 'attribute_not_exists(id)',
            ExpressionAttributeNames: {
              '#name': 'name',
              '#email': 'email',
              '#sent': 'cheat_sheet_sent',
              '#requestedAt': 'requested_at',
              '#sentAt': 'sent_at',
              ...(expiresAt !== undefined && { '#expiresAt': requestExpiryAttribute }),
            },
            ExpressionAttributeValues: {
              ':name': item.name,
              ':email': item.email,
              ':sent': item.cheat_sheet_sent,
              ':requestedAt': item.requested_at,
              ':sentAt': item.sent_at,
              ...(expiresAt !== undefined && { ':expiresAt': expiresAt }),
            },
          }),
        ),
      );
      return item;
    },

    async findNewestUnsent(email) {
      let startKey: Record<string, unknown> | undefined;
      for (let page = 0; page < unsentSearchMaxPages; page += 1) {
        const result = await storage('Query', () =>
          client.send(
            new QueryCommand({
              TableName: tableName,
              IndexName: emailIndex.name,
              KeyConditionExpression: '#email = :email',
              // Applied after each page of `Limit` items is read, so a page may come back empty.
              FilterExpression: '#sent = :unsent',
              ExpressionAttributeNames: { '#email': emailIndex.partitionKey, '#sent': 'cheat_sheet_sent' },
              ExpressionAttributeValues: { ':email': email, ':unsent': false },
              ScanIndexForward: false,
              Limit: unsentSearchPageSize,
              ExclusiveStartKey: startKey,
            }),
          ),
        );
        const [newest] = (result.Items ?? []) as CheatSheetRequestItem[];
        if (newest) return newest;
        startKey = result.LastEvaluatedKey;
        if (!startKey) return undefined;
      }
      return undefined;
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
        throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem failed', { cause: error });
      }
    },
  };
}
