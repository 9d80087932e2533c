/**
 * A route's step under its `Idempotency-Key` (idempotency.ts), as the JSON handlers and the form
 * handler take it: without a key the step simply runs; with one it runs once per key and body,
 * and a repeat gets the kept reply.
 */

import type { Logger } from '@aws-lambda-powertools/logger';
import type { JSONValue } from '@aws-lambda-powertools/commons/types';
import { dynamoDbClient } from '../runtime/aws-clients';
import { readIdempotencyTableName } from '../runtime/config';
import type { FailureReply } from '../http/http-reply';
import { runOncePerKey, type IdempotencyScope, type KeptReply, type KeyedOutcome } from './idempotency';
import { describeErrorForLog } from '../runtime/logger';
import type { RemainingTime } from '../runtime/remaining-time';

export interface KeyedCall {
  /** The request's key; undefined runs the step as a new request. */
  readonly key: string | undefined;
  readonly scope: IdempotencyScope;
  /** What a repeat of the key must match (the validated body). */
  readonly payload: unknown;
  readonly remainingTimeMs: RemainingTime;
  readonly logger: Pick<Logger, 'error'>;
}

export async function replyOncePerKey(call: KeyedCall, answer: () => Promise<KeyedOutcome>): Promise<KeptReply> {
  if (call.key === undefined) return (await answer()).reply;
  return runOncePerKey(
    {
      dynamoDb: dynamoDbClient,
      tableName: readIdempotencyTableName(),
      scope: call.scope,
      key: call.key,
      payload: call.payload as JSONValue,
      remainingTimeMs: call.remainingTimeMs,
      onNotKept: (error) =>
        call.logger.error('Answered, but the reply could not be kept under its idempotency key', {
          ...describeErrorForLog(error),
        }),
    },
    answer,
  );
}

/** A kept reply back as a step's outcome (the form handler's view): a failure's body holds `error` and `code`. */
export function stepOutcomeOf(
  reply: KeptReply,
): { readonly ok: true } | { readonly ok: false; readonly failure: FailureReply } {
  if (reply.statusCode < 400) return { ok: true };
  const body = reply.body as { error?: string; code?: FailureReply['code'] };
  return {
    ok: false,
    failure: { statusCode: reply.statusCode, message: body.error ?? '', code: body.code ?? 'unexpected' },
  };
}
