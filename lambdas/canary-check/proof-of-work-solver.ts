/**
 * Solves the send's challenge as the page does (frontend/src/api/proof-of-work-solver.ts): ALTCHA's
 * own solver (`altcha-lib`), here with its Node SHA-256 key derivation, which the send function's
 * check uses too (lambdas/limits/proof-of-work.ts). At most `proofOfWorkMaxCounter` hashes.
 */

import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

export type { Challenge };

/** The `X-Cheat-Sheet-Proof` header's value: base64 of ALTCHA's payload, the challenge and its solution. */
export async function solvedProof(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (solution === null) throw new Error('The proof of work could not be solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
