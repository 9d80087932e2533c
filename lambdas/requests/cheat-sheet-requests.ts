/**
 * The request items of the `cheat_sheet_requests` table. Every SDK failure becomes a
 * `storageUnavailable` ProductError (with the SDK error as its cause, for the logs). Only operations
 * dynalite supports: PutItem, UpdateItem, Query. The send function records with UpdateItem alone
 * (its role has no PutItem); the save function only puts.
 */

import { cleanStoredName } from '../../core/documents/greeting-name';
import { randomUUID } from 'node:crypto';
import {
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ProductError } from '../runtime/errors';
import { claimableStatuses, statusTimeAttributes, type DeliveryStatus } from '../../core/data/delivery-status';
import { consentRecordAt } from '../../core/data/consent';
import { emailIndex, requestExpiryAttribute, type CheatSheetRequestItem } from '../../core/data/tables';

/**
 * Whether a failed `attribute_not_exists(id)` on a new item's fresh random id is this call's own
 * earlier attempt, which the SDK retried after its reply was lost (a timeout after DynamoDB wrote
 * it): the id is the claim token, so no other writer can have used it. DynamoDB returns the item
 * (`ReturnValuesOnConditionCheckFailure`), which must then be the one this call wrote; dynalite
 * returns none, and the fresh id alone is the proof.
 */
function isOwnEarlierPut(error: unknown, item: CheatSheetRequestItem): boolean {
  if (!(error instanceof Error) || error.name !== 'ConditionalCheckFailedException') return false;
  const old = (error as { Item?: Record<string, { S?: string }> }).Item;
  return old === undefined || old.requested_at?.S === item.requested_at;
}

export interface CheatSheetRequests {
  /** Stores a new request, `requested`, and returns it. */
  create(
    request: { name: string; email: string; hasBook?: boolean },
    requestedAt: Date,
  ): Promise<CheatSheetRequestItem>;
  /**
   * The address's newest request a send may claim (`requested` or `failed`, or an old unsent item
   * without a status), whatever its age, or undefined. Reads the e-mail index, which is
   * eventually consistent in the cloud: a request saved a moment ago may not show yet.
   */
  findNewestClaimable(email: string): Promise<CheatSheetRequestItem | undefined>;
  /**
   * Claims a request for one send: `requested`/`failed` to `sending`, with `token`. False when it
   * was not claimable (another send holds it, or it went out already). A retried write that finds
   * its own token counts as claimed.
   */
  claim(id: string, token: string, at: Date): Promise<boolean>;
  /** Stores a send that had no request to claim, already `sending` with `token`, so every send is on record. */
  createSending(request: { name: string; email: string }, token: string, at: Date): Promise<CheatSheetRequestItem>;
  /** SES accepted it: `sent`, `cheat_sheet_sent`, `sent_at`, the message id. False when `token` no longer holds it. */
  markSent(id: string, token: string, messageId: string, at: Date): Promise<boolean>;
  /** SES provably took nothing: `failed`, with the failure's code; a later send may claim it again. */
  markFailed(id: string, token: string, failureCode: string, at: Date): Promise<boolean>;
  /** The call left and no answer came: `unknown`, never claimed again. */
  markUnknown(id: string, token: string, at: Date): Promise<boolean>;
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

/**
 * What a send may claim: `requested` or `failed`, or an item written before `delivery_status`
 * existed that was never sent (core/data/delivery-status.ts).
 */
const claimableCondition = '#status IN (:requested, :failed) OR (attribute_not_exists(#status) AND #sent = :unsent)';
const claimableNames = { '#status': 'delivery_status', '#sent': 'cheat_sheet_sent' };
const claimableValues = { ':requested': claimableStatuses[0], ':failed': claimableStatuses[1], ':unsent': false };

/** How many of the address's requests, newest first, one index page reads. */
const unsentSearchPageSize = 25;
/** Pages read before giving up: an address with 100 newer sent requests has no unsent one worth claiming. */
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
  /** One conditional UpdateItem: true when it applied, false when its condition did not hold. */
  const conditionalUpdate = async (input: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> => {
    try {
      await client.send(new UpdateCommand({ ...input, TableName: tableName }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem failed', { cause: error });
    }
  };
  /** Moves the request `token` holds to `status`, stamping its time; the token must still hold it. */
  const settle = (id: string, token: string, status: DeliveryStatus, at: Date, extra: Record<string, unknown>) => {
    const names: Record<string, string> = { '#status': 'delivery_status', '#statusTime': statusTimeAttributes[status] };
    const values: Record<string, unknown> = { ':status': status, ':at': at.toISOString(), ':token': token };
    const sets = ['#status = :status', 'status_at = :at', '#statusTime = :at'];
    for (const [attribute, value] of Object.entries(extra)) {
      names[`#${attribute}`] = attribute;
      values[`:${attribute}`] = value;
      sets.push(`#${attribute} = :${attribute}`);
    }
    return conditionalUpdate({
      Key: { id },
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'send_token = :token',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
  };
  return {
    async create({ name, email, hasBook }, requestedAt) {
      const at = requestedAt.toISOString();
      const item: CheatSheetRequestItem = {
        id: randomUUID(),
        // What was typed, without control and format characters (greeting-name.ts).
        name: cleanStoredName(name),
        email,
        cheat_sheet_sent: false,
        requested_at: at,
        delivery_status: 'requested',
        status_at: at,
        // The reader ticked the confirmation (the page and the form require it): what and when (core/data/consent.ts).
        ...(hasBook === true && { consent: consentRecordAt(requestedAt) }),
        ...expiry(requestedAt),
      };
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: item,
            // A fresh UUID never collides; the condition makes sure nothing is ever overwritten.
            ConditionExpression: 'attribute_not_exists(id)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
      } catch (error) {
        if (!isOwnEarlierPut(error, item)) {
          throw new ProductError('storageUnavailable', 'DynamoDB PutItem failed', { cause: error });
        }
      }
      return item;
    },

    async createSending({ name, email }, token, at) {
      const time = at.toISOString();
      const item: CheatSheetRequestItem = {
        id: randomUUID(),
        // What was typed, without control and format characters (greeting-name.ts).
        name: cleanStoredName(name),
        email,
        cheat_sheet_sent: false,
        requested_at: time,
        delivery_status: 'sending',
        status_at: time,
        sending_at: time,
        send_token: token,
        ...expiry(at),
      };
      const { id, ...attributes } = item;
      const names = Object.fromEntries(Object.keys(attributes).map((key) => [`#${key}`, key]));
      const values = Object.fromEntries(Object.entries(attributes).map(([key, value]) => [`:${key}`, value]));
      // UpdateItem on a new key creates the item: the send role needs no PutItem. A retried write
      // finds its own token and changes nothing.
      const created = await conditionalUpdate({
        Key: { id },
        UpdateExpression: `SET ${Object.keys(attributes)
          .map((key) => `#${key} = :${key}`)
          .join(', ')}`,
        ConditionExpression: 'attribute_not_exists(id) OR #send_token = :send_token',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      });
      if (!created) throw new ProductError('storageUnavailable', `Request ${id} exists already: a fresh UUID collided`);
      return item;
    },

    async findNewestClaimable(email) {
      let startKey: Record<string, unknown> | undefined;
      for (let page = 0; page < unsentSearchMaxPages; page += 1) {
        const result = await storage('Query', () =>
          client.send(
            new QueryCommand({
              TableName: tableName,
              IndexName: emailIndex.name,
              KeyConditionExpression: '#email = :email',
              // Applied after each page of `Limit` items is read, so a page may come back empty.
              FilterExpression: claimableCondition,
              ExpressionAttributeNames: { '#email': emailIndex.partitionKey, ...claimableNames },
              ExpressionAttributeValues: { ':email': email, ...claimableValues },
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

    async claim(id, token, at) {
      return conditionalUpdate({
        Key: { id },
        UpdateExpression: 'SET #status = :sending, status_at = :at, sending_at = :at, send_token = :token',
        ConditionExpression: `attribute_exists(id) AND ((${claimableCondition}) OR send_token = :token)`,
        ExpressionAttributeNames: claimableNames,
        ExpressionAttributeValues: {
          ...claimableValues,
          ':sending': 'sending',
          ':at': at.toISOString(),
          ':token': token,
        },
      });
    },

    markSent: (id, token, messageId, at) =>
      settle(id, token, 'sent', at, { cheat_sheet_sent: true, ses_message_id: messageId }),
    markFailed: (id, token, failureCode, at) => settle(id, token, 'failed', at, { failure_code: failureCode }),
    markUnknown: (id, token, at) => settle(id, token, 'unknown', at, {}),
  };
}
