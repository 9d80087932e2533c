/**
 * Solves a challenge with ALTCHA's own solver (`altcha-lib`) and the browser's Web Crypto
 * SHA-256: the counter whose key starts with the challenge's prefix. Loaded only on a submit that
 * needs it (proof-of-work.ts imports it dynamically).
 */

import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';

/** The challenge, as the route sends it (ALTCHA's parameters and signature). */
export interface ProofOfWorkChallenge {
  readonly parameters: Readonly<Record<string, unknown>> & { readonly keyPrefix: string };
  readonly signature: string;
}

/** The `X-Cheat-Sheet-Proof` header's value: base64 of ALTCHA's payload, the challenge and its solution. */
export async function solvedProof(challenge: ProofOfWorkChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge: challenge as unknown as Challenge, deriveKey });
  if (solution === null) throw new Error('The proof of work could not be solved.');
  return btoa(JSON.stringify({ challenge, solution }));
}
