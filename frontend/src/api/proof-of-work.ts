/**
 * The proof of work before a send (core/api/proof-of-work.ts): the page asks the challenge route
 * whether the send needs one and, when it does, solves it with the solver, which it loads only
 * then (a chunk of its own: the island's budget does not carry it).
 */

import { proofOfWorkChallengePath, proofOfWorkHeader } from '../../../core/api/proof-of-work';
import type { SendOutcome } from './cheat-sheet-api';
import type { ProofOfWorkChallenge } from './proof-of-work-solver';

export { proofOfWorkHeader };

/**
 * What the page has for the send: the header's value (or none, when the send needs no proof), or
 * the challenge route's failure, which the page shows as it shows a failed send.
 */
export type ProofOutcome =
  | { readonly kind: 'proof'; readonly header?: string }
  | Extract<SendOutcome, { readonly kind: 'rejected' | 'function-error' }>;

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** Fetches a challenge and solves it. Throws only when the network fails, as the send call does. */
export async function proveWork(): Promise<ProofOutcome> {
  const response = await fetch(proofOfWorkChallengePath, { headers: { Accept: 'application/json' } });
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || body === undefined || typeof body.required !== 'boolean') {
    const error = textOf(body?.error);
    if (error !== undefined) return { kind: 'rejected', message: error };
    return { kind: 'function-error', message: `HTTP ${response.status} ${response.statusText}`.trim() };
  }
  if (!body.required) return { kind: 'proof' };
  const { solvedProof } = await import('./proof-of-work-solver');
  return { kind: 'proof', header: await solvedProof(body.challenge as ProofOfWorkChallenge) };
}
