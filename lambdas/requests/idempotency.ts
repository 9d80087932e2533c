/**
 * The `Idempotency-Key` of both JSON routes (the IETF draft *The Idempotency-Key HTTP Header
 * Field*), with Powertools for AWS Lambda's Idempotency utility and its DynamoDB persistence in
 * `cheat_sheet_idempotency`:
 *
 * - the same key and body replay the first reply (status and body): nothing is stored, sent or
 *   counted again;
 * - the same key while the first call still runs → `IdempotencyKeyInUseError` (409);
 * - the same key with another body → `IdempotencyKeyReusedError` (422);
 * - a key lives a day (`expiresAfterSeconds`), and belongs to one route (its key prefix).
 *
 * Which replies are kept is the caller's choice (`keep`): a success, or a failure after which the
 * outcome is not known (SES may have accepted the e-mail), is replayed; a failure that proves
 * nothing was done is forgotten, so "Try Again" with the same key runs again.
 */

import { createHash, randomUUID } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyItemAlreadyExistsError,
  IdempotencyRecordStatus,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { ConditionalCheckFailedException, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { JSONValue } from '@aws-lambda-powertools/commons/types';
import { ProductError } from '../runtime/errors';

/** The IETF draft's 24 hours: long enough for any retry of one submission. */
export const idempotencyKeyLifetimeSeconds = 24 * 60 * 60;

/** The attribute holding the token of the call that claimed a key (see `ClaimedPersistenceLayer`). */
export const idempotencyClaimAttribute = 'claim';

/** A reply as the route sends it: what a key replays. */
export interface KeptReply {
  readonly statusCode: number;
  readonly body: JSONValue;
}

/** What one run answered, and whether a repeat of the key replays it. */
export interface KeyedOutcome {
  readonly reply: KeptReply;
  /** False for a failure that proves nothing was done: the key is forgotten, and may run again. */
  readonly keep: boolean;
}

/** The scope of a key: a key sent to both routes is two keys. */
export type IdempotencyScope = 'save-request' | 'send-cheat-sheet';
export const idempotencyScopes: readonly IdempotencyScope[] = ['save-request', 'send-cheat-sheet'];

/**
 * The id Powertools gives a key's record on a route: the scope (its key prefix), `#`, and the
 * base64 SHA-256 of the key as JSON (BasePersistenceLayer.getHashedIdempotencyKey, with
 * `eventKeyJmesPath: 'key'` and `hashFunction: 'sha256'` as `runOncePerKey` sets them). How
 * `npm run leads -- erase` finds a request's records from the key the request stores; a test
 * holds it to the record Powertools writes.
 */
export function idempotencyRecordId(scope: IdempotencyScope, key: string): string {
  return `${scope}#${createHash('sha256').update(JSON.stringify(key)).digest('base64')}`;
}

/**
 * Powertools' DynamoDB persistence, with one change: the put that claims a key carries a token of
 * its own, and its condition accepts an item holding that token. So when the SDK retries a put
 * whose first reply was lost (a timeout after DynamoDB wrote it), the retry recognizes its own
 * claim rather than answering 409 to itself. Everything else is Powertools' own.
 */
class ClaimedPersistenceLayer extends DynamoDBPersistenceLayer {
  constructor(
    private readonly dynamoDb: DynamoDBClient,
    private readonly table: string,
  ) {
    super({ tableName: table, awsSdkV3Client: dynamoDb });
  }

  protected override async _putRecord(record: IdempotencyRecord): Promise<void> {
    const now = Date.now();
    const item = {
      ...this.getKey(record.idempotencyKey),
      expiration: { N: String(record.expiryTimestamp ?? 0) },
      status: { S: record.getStatus() },
      [idempotencyClaimAttribute]: { S: randomUUID() },
      ...(record.inProgressExpiryTimestamp !== undefined && {
        in_progress_expiration: { N: String(record.inProgressExpiryTimestamp) },
      }),
      ...(this.isPayloadValidationEnabled() && record.payloadHash !== undefined
        ? { validation: { S: record.payloadHash } }
        : {}),
    };
    try {
      await this.dynamoDb.send(
        new PutItemCommand({
          TableName: this.table,
          Item: item,
          // Powertools' three conditions (a new key, an expired one, an in-progress claim whose
          // function timed out), and a fourth: the item is this very put's, written by an
          // earlier attempt of the same request. Without parentheses: DynamoDB takes AND before OR,
          // and the local twin's parser backtracks at each parenthesis (request-items.ts, anyOf).
          ConditionExpression:
            'attribute_not_exists(#id) OR #expiry < :now OR #status = :inprogress AND attribute_exists(#inProgressExpiry) AND #inProgressExpiry < :nowMs OR #claim = :claim',
          ExpressionAttributeNames: {
            '#id': 'id',
            '#expiry': 'expiration',
            '#status': 'status',
            '#inProgressExpiry': 'in_progress_expiration',
            '#claim': idempotencyClaimAttribute,
          },
          ExpressionAttributeValues: {
            ':now': { N: String(now / 1000) },
            ':nowMs': { N: String(now) },
            ':inprogress': { S: IdempotencyRecordStatus.INPROGRESS },
            ':claim': item[idempotencyClaimAttribute],
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // DynamoDB returns the item that stood in the way; dynalite does not, and Powertools then
      // reads it (consistently) itself.
      const old = error.Item;
      const existing =
        old &&
        new IdempotencyRecord({
          idempotencyKey: old.id?.S ?? record.idempotencyKey,
          status: (old.status?.S ?? IdempotencyRecordStatus.INPROGRESS) as typeof IdempotencyRecordStatus.INPROGRESS,
          expiryTimestamp: old.expiration?.N === undefined ? undefined : Number(old.expiration.N),
          inProgressExpiryTimestamp:
            old.in_progress_expiration?.N === undefined ? undefined : Number(old.in_progress_expiration.N),
          responseData: undefined,
          payloadHash: old.validation?.S,
        });
      // A completed record's reply is read again by Powertools, so the reply is never half-parsed here.
      throw new IdempotencyItemAlreadyExistsError(
        `Idempotency key ${record.idempotencyKey} already exists`,
        existing?.getStatus() === IdempotencyRecordStatus.COMPLETED ? undefined : existing,
      );
    }
  }
}

const persistenceLayers = new Map<string, ClaimedPersistenceLayer>();

/** One persistence layer per route and table: Powertools configures a layer once, with its prefix. */
function persistenceFor(dynamoDb: DynamoDBClient, tableName: string, scope: IdempotencyScope) {
  const id = `${tableName}\n${scope}`;
  let layer = persistenceLayers.get(id);
  if (!layer) {
    layer = new ClaimedPersistenceLayer(dynamoDb, tableName);
    persistenceLayers.set(id, layer);
  }
  return layer;
}

/** Thrown through Powertools so that it forgets the key; carries the reply out. */
class ForgottenReply extends Error {
  constructor(readonly reply: KeptReply) {
    super('The reply proves nothing was done: the key is forgotten');
  }
}

export interface IdempotentRun {
  readonly dynamoDb: DynamoDBClient;
  readonly tableName: string;
  readonly scope: IdempotencyScope;
  readonly key: string;
  /** What the key is checked against: the same key with another one is a 422. */
  readonly payload: JSONValue;
  /** Lambda's; the key's in-progress claim lapses when the function would have timed out. */
  readonly remainingTimeMs: () => number;
  /** Told when a reply was produced but could not be kept: the visitor still gets it. */
  readonly onNotKept?: (error: unknown) => void;
}

/** Runs `run` once per key and body; a repeat gets the kept reply. */
export async function runOncePerKey(options: IdempotentRun, run: () => Promise<KeyedOutcome>): Promise<KeptReply> {
  let produced: KeptReply | undefined;
  const once = makeIdempotent(
    // Powertools reads the key and the payload from this argument; the run itself needs neither.
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    async (_request: { key: string; payload: JSONValue }): Promise<JSONValue> => {
      const outcome = await run();
      produced = outcome.reply;
      if (!outcome.keep) throw new ForgottenReply(outcome.reply);
      return outcome.reply as unknown as JSONValue;
    },
    {
      persistenceStore: persistenceFor(options.dynamoDb, options.tableName, options.scope),
      keyPrefix: options.scope,
      config: new IdempotencyConfig({
        eventKeyJmesPath: 'key',
        payloadValidationJmesPath: 'payload',
        throwOnNoIdempotencyKey: true,
        expiresAfterSeconds: idempotencyKeyLifetimeSeconds,
        hashFunction: 'sha256',
        lambdaContext: { getRemainingTimeInMillis: options.remainingTimeMs } as never,
      }),
    },
  );
  try {
    return (await once({ key: options.key, payload: options.payload })) as unknown as KeptReply;
  } catch (error) {
    if (error instanceof ForgottenReply) return error.reply;
    if (error instanceof IdempotencyAlreadyInProgressError) {
      throw new ProductError('idempotencyKeyInUse', 'The key is in use by a request still running', { cause: error });
    }
    if (error instanceof IdempotencyValidationError) {
      throw new ProductError('idempotencyKeyReused', 'The key was first used with another body', { cause: error });
    }
    // The work was done and answered, but its record could not be written: the visitor still
    // gets the reply (a repeat of the key within the function's timeout gets 409).
    if (produced !== undefined) {
      options.onNotKept?.(error);
      return produced;
    }
    if (error instanceof Error && error.name.startsWith('Idempotency')) {
      throw new ProductError('storageUnavailable', 'The idempotency record could not be read or written', {
        cause: error,
      });
    }
    throw error;
  }
}
