/**
 * Issues the proof of work's challenges (core/api/proof-of-work.ts, `altcha-lib`): what the
 * challenge function needs, without the check's table (proof-of-work.ts spends a solution once).
 * A challenge and its answer's key are signed with HMAC keys from the deployment's secret
 * (ALTCHA's deterministic mode), so checking one costs two HMACs and no hashing.
 */

import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { proofOfWorkAlgorithm, proofOfWorkLifetimeSeconds, proofOfWorkMaxCounter } from '../../core/api/proof-of-work';
import type { ClientAddressSettings } from '../runtime/config';

/** The two HMAC keys, one per use, from the one secret. */
export const keysOf = (secret: string) => ({ challenge: `${secret}:challenge`, key: `${secret}:key` });

/** A fresh challenge, signed, expiring `proofOfWorkLifetimeSeconds` from `now`; its counter drawn below the bound. */
export function issueChallenge(secret: string, now = new Date()): Promise<Challenge> {
  const keys = keysOf(secret);
  return createChallenge({
    algorithm: proofOfWorkAlgorithm,
    cost: 1,
    counter: randomInt(proofOfWorkMaxCounter),
    deriveKey,
    expiresAt: Math.floor(now.getTime() / 1000) + proofOfWorkLifetimeSeconds,
    hmacSignatureSecret: keys.challenge,
    hmacKeySignatureSecret: keys.key,
  });
}

/**
 * The deployment's secret for the challenges' HMAC keys: behind CloudFront derived from the
 * origin secret (a purpose string of its own, as the counters' key), locally the counters' key of
 * this run.
 */
export async function proofOfWorkSecretOf(
  settings: ClientAddressSettings,
  loadOriginSecret: (arn: string) => Promise<string>,
): Promise<string> {
  if (settings.source === 'source-ip') return settings.key;
  const originSecret = await loadOriginSecret(settings.originSecretArn);
  return createHmac('sha256', originSecret).update('cheat-sheet proof of work').digest('hex');
}
