/**
 * The request items of the `cheat_sheet_requests` table. Every SDK failure becomes a
 * `storageUnavailable` ProductError (with the SDK error as its cause, for the logs). Only operations
 * dynalite supports: PutItem, UpdateItem, GetItem, Query. The send function records with
 * UpdateItem alone (its role has no PutItem); the save function only puts.
 *
 * A submission's `Idempotency-Key` (the page's, or the form's derived one) names its request: the
 * item's id is derived from the key (`submissionItemId`) and the key is stored on it
 * (`submission_key`), so the send of a submission claims the request its save wrote by its id
 * (one conditional UpdateItem that answers the item; a consistent GetItem only when the claim is
 * refused), never through the eventually consistent e-mail index, and a key that already has a
 * request never makes a second one.
 *
 * Every status write is conditional on the state its writer expects (core/data/delivery-status.ts):
 * the send's own writes move `sending` only, with its token, so an SES event that came first
 * (`delivered`, `bounced`, `complained`) is never overwritten by a late `sent`.
 */

import {
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ProductError } from '../runtime/errors';
import { isUnsentStatus, statusTimeAttributes, type DeliveryStatus } from '../../core/data/delivery-status';
import { consentRecordAt } from '../../core/data/consent';
import type { MailProvider } from '../../core/data/mail-provider';
import { emailIndex, requestExpiryAttribute, unsentIndex, type CheatSheetRequestItem } from '../../core/data/tables';
import {
  anyOf,
  canaryItem,
  claimableCondition,
  claimCondition,
  claimableNames,
  claimableValues,
  expiryAfter,
  isConditionFailure,
  isOwnEarlierPut,
  newRequestItem,
  sesVerdicts,
  storage,
  submissionItemId,
  unsentSearchMaxPages,
  unsentSearchPageSize,
} from './request-items';

export { expiryAfter, submissionItemId } from './request-items';

/** What a send's `markSent` found: its own record written, SES's verdict there first, or neither. */
export type SentRecord = 'recorded' | 'verdict-first' | 'not-held';

export interface CheatSheetRequests {
  /**
   * Stores a new request, `requested`, and returns it. With a submission key, the item's id is the
   * key's and the key is stored on it; a key that has a request already returns that request,
   * unchanged (`created` false).
   */
  create(
    /** `canary`: the canary's request (core/data/canary-mark.ts), marked, unconsented, out of the unsent index, kept a day. */
    request: { name: string; email: string; hasBook?: boolean; mailingList?: boolean; canary?: boolean },
    requestedAt: Date,
    submissionKey?: string,
  ): Promise<CheatSheetRequestItem & { readonly created?: boolean }>;
  /** The request a submission's key names, read consistently; undefined when it has none. */
  findBySubmissionKey(submissionKey: string): Promise<CheatSheetRequestItem | undefined>;
  /** One request by its id, read consistently. */
  findById(id: string): Promise<CheatSheetRequestItem | undefined>;
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
  /**
   * Claims the request a submission's key names, as `claim`, only while it is `email`'s: the item as
   * claimed, or undefined when the key has no such claimable request (the caller reads it to say why).
   */
  claimSubmission(
    submissionKey: string,
    email: string,
    token: string,
    at: Date,
  ): Promise<CheatSheetRequestItem | undefined>;
  /**
   * Stores a send that had no request to claim, already `sending` with `token`, so every send is on
   * record. With a submission key, under the key's id: undefined when the key has a request already
   * (a parallel send, or a save that landed meanwhile), which the caller then reads.
   */
  createSending(
    request: { name: string; email: string },
    token: string,
    at: Date,
    submissionKey?: string,
  ): Promise<CheatSheetRequestItem | undefined>;
  /**
   * SES accepted it: `sent`, `cheat_sheet_sent`, `sent_at`, the message id, only from `sending`
   * with `token`. `verdict-first` when an SES event of this message moved it on already (it keeps
   * SES's verdict); `not-held` when `token` no longer holds it.
   */
  markSent(id: string, token: string, messageId: string, at: Date): Promise<SentRecord>;
  /** SES provably took nothing: `failed`, with the failure's code, only from `sending` with `token`. */
  markFailed(id: string, token: string, failureCode: string, at: Date): Promise<boolean>;
  /** The call left and no answer came: `unknown` (never claimed again), only from `sending` with `token`. */
  markUnknown(id: string, token: string, at: Date): Promise<boolean>;
  /**
   * After a send reached the reader: marks the address's requests saved up to `sentRequest`'s time
   * that a send could still claim (`requested`, `failed`) superseded by it (`superseded_by`), so
   * neither a send nor `resend` mails the reader again. Reads the e-mail index: a request it does
   * not show yet is caught by `resend`'s own check of the mailbox (ops/leads/unsent-requests.ts).
   * Returns the ids it marked.
   */
  supersedeOlder(
    sentRequest: Pick<CheatSheetRequestItem, 'id' | 'email' | 'requested_at'>,
    at: Date,
  ): Promise<string[]>;
  /** Marks one request superseded by `by`, only while a send could still claim it. */
  markSuperseded(id: string, by: string, at: Date): Promise<boolean>;
}

export interface RequestsTableOptions {
  /**
   * Days after which DynamoDB's TTL deletes a request (`requestRetentionDays`): every item this
   * writes, by the save or the send function, carries its `expires_at`.
   *
   * @default none: requests are kept until erased
   */
  readonly retentionDays?: number;
  /** The author's mail provider, which each consent record names. @default none */
  readonly mailProvider?: MailProvider;
}

export function cheatSheetRequestsTable(
  client: DynamoDBDocumentClient,
  tableName: string,
  { retentionDays, mailProvider }: RequestsTableOptions = {},
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
  /**
   * Moves the request `token` holds from `sending` to `status`, stamping its time. The same write
   * retried by the SDK after DynamoDB applied it (`status` already, with this token and these
   * values) applies again, harmlessly; any other state is left alone.
   */
  const settle = (
    id: string,
    token: string,
    status: DeliveryStatus,
    at: Date,
    extra: Record<string, unknown>,
    ownRetry: string,
  ) => {
    const names: Record<string, string> = { '#status': 'delivery_status', '#statusTime': statusTimeAttributes[status] };
    const values: Record<string, unknown> = {
      ':status': status,
      ':at': at.toISOString(),
      ':token': token,
      ':sending': 'sending',
    };
    const sets = ['#status = :status', 'status_at = :at', '#statusTime = :at'];
    for (const [attribute, value] of Object.entries(extra)) {
      names[`#${attribute}`] = attribute;
      values[`:${attribute}`] = value;
      sets.push(`#${attribute} = :${attribute}`);
    }
    // Sent or unknown: no longer the unsent check's (a failed request stays in its index).
    const leavesUnsentIndex = !isUnsentStatus(status);
    if (leavesUnsentIndex) names['#queue'] = unsentIndex.partitionKey;
    return conditionalUpdate({
      Key: { id },
      UpdateExpression: `SET ${sets.join(', ')}${leavesUnsentIndex ? ' REMOVE #queue' : ''}`,
      ConditionExpression: anyOf(['#status = :sending', `#status = :status AND ${ownRetry}`], 'send_token = :token'),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
  };
  /** Only while a send could still claim it: one that claimed it since is left to that send. */
  const markSuperseded = (id: string, by: string, at: Date) =>
    conditionalUpdate({
      Key: { id },
      // Its reader was mailed through a later request: no longer the unsent check's.
      UpdateExpression: 'SET superseded_by = :by, superseded_at = :at REMOVE #queue',
      ConditionExpression: claimableCondition,
      ExpressionAttributeNames: { ...claimableNames, '#queue': unsentIndex.partitionKey },
      ExpressionAttributeValues: { ...claimableValues, ':by': by, ':at': at.toISOString() },
    });
  const getItem = async (id: string): Promise<CheatSheetRequestItem | undefined> => {
    const { Item } = await storage('GetItem', () =>
      client.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true })),
    );
    return Item as CheatSheetRequestItem | undefined;
  };
  /** Claims `id` (for `email` only, when given): the item as claimed, or undefined when the condition did not hold. */
  const claimItem = async (id: string, token: string, at: Date, email?: string) => {
    try {
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id },
          // An item from before the unsent index joins it when claimed.
          UpdateExpression:
            'SET #status = :sending, status_at = :at, sending_at = :at, send_token = :token, #queue = :queue',
          ConditionExpression: claimCondition(email),
          ExpressionAttributeNames: { ...claimableNames, '#queue': unsentIndex.partitionKey },
          ExpressionAttributeValues: {
            ...claimableValues,
            ...(email !== undefined && { ':email': email }),
            ':queue': unsentIndex.value,
            ':sending': 'sending',
            ':at': at.toISOString(),
            ':token': token,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes as CheatSheetRequestItem;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem failed', { cause: error });
    }
  };
  return {
    async create({ name, email, hasBook, mailingList, canary }, requestedAt, submissionKey) {
      const item: CheatSheetRequestItem = canary
        ? canaryItem(newRequestItem({ name, email }, requestedAt, 'requested', submissionKey, {}), requestedAt)
        : {
            ...newRequestItem({ name, email }, requestedAt, 'requested', submissionKey, expiry(requestedAt)),
            // The reader ticked the confirmation (the page and the form require it): what and when, and with a
            // provider the answer to the mailing-list box, so the hand-off and a later e-mail follow it (core/data/consent.ts).
            ...(hasBook === true && { consent: consentRecordAt(requestedAt, mailProvider, mailingList === true) }),
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
        if (submissionKey !== undefined && isConditionFailure(error)) {
          // The key's request exists: this call's own earlier attempt, or an earlier save of the key.
          const existing = await getItem(item.id);
          if (existing) return { ...existing, created: existing.requested_at === item.requested_at };
        }
        if (!isOwnEarlierPut(error, item)) {
          throw new ProductError('storageUnavailable', 'DynamoDB PutItem failed', { cause: error });
        }
      }
      return { ...item, created: true };
    },

    findBySubmissionKey: (submissionKey) => getItem(submissionItemId(submissionKey)),
    findById: getItem,
    markSuperseded,

    async createSending({ name, email }, token, at, submissionKey) {
      const item: CheatSheetRequestItem = {
        ...newRequestItem({ name, email }, at, 'sending', submissionKey, expiry(at)),
        sending_at: at.toISOString(),
        send_token: token,
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
      if (created) return item;
      if (submissionKey !== undefined) return undefined;
      throw new ProductError('storageUnavailable', `Request ${id} exists already: a fresh UUID collided`);
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

    claim: async (id, token, at) => (await claimItem(id, token, at)) !== undefined,

    // No read first: the claim's own write answers with the item; only a claim refused reads it.
    claimSubmission: (submissionKey, email, token, at) => claimItem(submissionItemId(submissionKey), token, at, email),

    async markSent(id, token, messageId, at) {
      const sent = await settle(
        id,
        token,
        'sent',
        at,
        { cheat_sheet_sent: true, ses_message_id: messageId },
        '#ses_message_id = :ses_message_id',
      );
      if (sent) return 'recorded';
      // SES's event of this very message came first: its verdict stands, and it recorded the send.
      const verdictFirst = await conditionalUpdate({
        Key: { id },
        UpdateExpression: 'SET sent_at = if_not_exists(sent_at, :at)',
        ConditionExpression: `send_token = :token AND ses_message_id = :messageId AND #status IN (${sesVerdicts
          .map((_, index) => `:verdict${index}`)
          .join(', ')})`,
        ExpressionAttributeNames: { '#status': 'delivery_status' },
        ExpressionAttributeValues: {
          ':at': at.toISOString(),
          ':token': token,
          ':messageId': messageId,
          ...Object.fromEntries(sesVerdicts.map((verdict, index) => [`:verdict${index}`, verdict])),
        },
      });
      return verdictFirst ? 'verdict-first' : 'not-held';
    },
    markFailed: (id, token, failureCode, at) =>
      settle(id, token, 'failed', at, { failure_code: failureCode }, '#failure_code = :failure_code'),
    markUnknown: (id, token, at) => settle(id, token, 'unknown', at, {}, '#statusTime = :at'),

    async supersedeOlder(sentRequest, at) {
      const marked: string[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const result = await storage('Query', () =>
          client.send(
            new QueryCommand({
              TableName: tableName,
              IndexName: emailIndex.name,
              KeyConditionExpression: '#email = :email AND #requestedAt <= :requestedAt',
              FilterExpression: claimableCondition,
              ExpressionAttributeNames: {
                '#email': emailIndex.partitionKey,
                '#requestedAt': emailIndex.sortKey,
                ...claimableNames,
              },
              ExpressionAttributeValues: {
                ':email': sentRequest.email,
                ':requestedAt': sentRequest.requested_at,
                ...claimableValues,
              },
              ExclusiveStartKey: startKey,
            }),
          ),
        );
        for (const older of (result.Items ?? []) as CheatSheetRequestItem[]) {
          if (older.id === sentRequest.id) continue;
          if (await markSuperseded(older.id, sentRequest.id, at)) marked.push(older.id);
        }
        startKey = result.LastEvaluatedKey;
      } while (startKey);
      return marked;
    },
  };
}
