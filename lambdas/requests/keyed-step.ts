/**
 * A route's step under its `Idempotency-Key` (idempotency.ts), as the JSON handlers and the form
 * handler take it: without a key the step simply runs; with one it runs once per key and body,
 * and a repeat gets the kept reply.
 */

import type { Logger } from '@aws-lambda-powertools/logger';
import { createHmac } from 'node:crypto';
import { dynamoDbClient, secretsManager } from '../runtime/aws-clients';
import { readClientAddressSettings, readIdempotencyTableName } from '../runtime/config';
import { loadOriginSecret } from '../http/origin-secret';
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

/**
 * The body a repeat of the key must match, as the key's record keeps it: an HMAC under the
 * deployment's secret (as the client counters' keys), never a plain hash of the body, which anyone
 * holding the reader's address could match. Locally the run's counters' key; behind CloudFront a
 * key derived from the origin secret (read once per container).
 */
export async function keyedPayloadOf(payload: unknown): Promise<string> {
  const settings = readClientAddressSettings();
  const secret =
    settings.source === 'source-ip'
      ? settings.key
      : createHmac('sha256', await loadOriginSecret(secretsManager, settings.originSecretArn))
          .update('cheat-sheet idempotency payload')
          .digest('hex');
  return createHmac('sha256', secret).update(JSON.stringify(payload), 'utf8').digest('base64');
}

export async function replyOncePerKey(call: KeyedCall, answer: () => Promise<KeyedOutcome>): Promise<KeptReply> {
  if (call.key === undefined) return (await answer()).reply;
  return runOncePerKey(
    {
      dynamoDb: dynamoDbClient,
      tableName: readIdempotencyTableName(),
      scope: call.scope,
      key: call.key,
      payload: await keyedPayloadOf(call.payload),
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
