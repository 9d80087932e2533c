/**
 * Issues and checks the proof of work before a send (core/api/proof-of-work.ts), with
 * `altcha-lib`. A challenge is signed with an HMAC key from the deployment's secret, and so is
 * its answer's key (ALTCHA's deterministic mode), so a check needs no hashing beyond HMACs. A
 * solution is spent on its first use: a conditional write of `proof#<signature>` to the limit
 * counters table, deleted by TTL once the challenge has expired, so a replay finds it.
 *
 * Operations: UpdateItem (conditional). An SDK failure becomes `storageUnavailable`.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { limitCountersExpiryAttribute, limitCountersPartitionKey } from '../../core/data/tables';
import { proofOfWorkMessages } from '../../core/api/messages';
import { issueChallenge, keysOf } from './proof-of-work-challenge';
import { ProductError } from '../runtime/errors';

/** What a check found: accepted, or why not. */
export type ProofVerdict = 'accepted' | 'missing' | 'malformed' | 'invalid' | 'expired' | 'replayed';

export interface ProofOfWork {
  /** A fresh challenge, signed, expiring `proofOfWorkLifetimeSeconds` from `now`. */
  issue(now?: Date): Promise<Challenge>;
  /** Checks the header's payload and, when it holds, spends its challenge. */
  check(header: string | undefined, now?: Date): Promise<ProofVerdict>;
}

/** ALTCHA's payload from the header (base64 of JSON), or undefined when it is not one. */
function payloadOf(header: string): Payload | undefined {
  try {
    const payload = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as Partial<Payload>;
    const { challenge, solution } = payload;
    const parameters = challenge?.parameters;
    if (
      typeof challenge?.signature !== 'string' ||
      typeof parameters?.nonce !== 'string' ||
      typeof parameters.salt !== 'string' ||
      typeof parameters.keyPrefix !== 'string' ||
      typeof parameters.expiresAt !== 'number' ||
      typeof solution?.counter !== 'number' ||
      typeof solution.derivedKey !== 'string'
    ) {
      return undefined;
    }
    return payload as Payload;
  } catch {
    return undefined;
  }
}

export function proofOfWork(secret: string, dynamoDb: DynamoDBDocumentClient, tableName: string): ProofOfWork {
  const keys = keysOf(secret);

  /** Records the challenge as used; false when it already was. */
  async function spend(signature: string, expiresAtSeconds: number): Promise<boolean> {
    try {
      await dynamoDb.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { [limitCountersPartitionKey]: `proof#${signature}` },
          UpdateExpression: 'SET #expires = :expires',
          ConditionExpression: 'attribute_not_exists(#id)',
          ExpressionAttributeNames: { '#id': limitCountersPartitionKey, '#expires': limitCountersExpiryAttribute },
          ExpressionAttributeValues: { ':expires': expiresAtSeconds },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw new ProductError('storageUnavailable', 'Could not record the proof of work as used', { cause: error });
    }
  }

  return {
    issue: (now) => issueChallenge(secret, now),

    async check(header, now = new Date()) {
      if (header === undefined || header.trim() === '') return 'missing';
      const payload = payloadOf(header.trim());
      if (!payload) return 'malformed';
      const { expiresAt = 0 } = payload.challenge.parameters;
      if (expiresAt * 1000 <= now.getTime()) return 'expired';
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: keys.challenge,
        hmacKeySignatureSecret: keys.key,
      });
      if (!result.verified) return result.expired ? 'expired' : 'invalid';
      return (await spend(payload.challenge.signature!, expiresAt)) ? 'accepted' : 'replayed';
    },
  };
}

/** Throws the catalogue's `proofOfWorkRefused`, with the verdict's words, unless the check accepted. */
export async function requireProofOfWork(proofs: ProofOfWork, header: string | undefined): Promise<void> {
  const verdict = await proofs.check(header);
  if (verdict !== 'accepted') throw new ProductError('proofOfWorkRefused', proofOfWorkMessages[verdict]);
}

export { proofOfWorkSecretOf } from './proof-of-work-challenge';
