/**
 * The canary's marking: how a request the canary makes (the scheduled reader that checks the live
 * site, lambdas/canary/, and `npm run smoke -- <site> --canary`) is told from a reader's, in a way
 * no visitor can forge.
 *
 * The canary sends `X-Canary-Mark: <epoch seconds>.<hex HMAC-SHA-256>` on the save and the send. The
 * HMAC is taken under a key derived from the deployment's secret (the origin secret behind
 * CloudFront, the run's `CLIENT_ADDRESS_KEY` locally) for this purpose only, over the time and the
 * mailbox, which must be the SES mailbox simulator's success address. The save and send functions
 * accept a mark only when its HMAC verifies, it is at most `canaryMarkMaxAgeSeconds` old, and the
 * mailbox is the simulator's: anything else (no header, a made-up or stale one, another mailbox) is
 * a reader's request, treated as any other. A mark is worth nothing to a stranger: it only exempts
 * a request to the simulator's address, which reaches no one.
 *
 * A marked request's item carries `canary: true` (`canaryItemAttribute`), no consent, no place in
 * the unsent index, and expires a day after it was saved (`canaryRetentionDays`); it counts towards
 * no limit and no product metric. Whatever reads the requests as leads (the export, the digest, the
 * hand-off, the funnel) leaves out the items carrying it.
 */

import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/** The request header of the canary's mark (forwarded by CloudFront to the API). */
export const canaryMarkHeader = 'X-Canary-Mark';

/** The attribute a canary's request item carries, `true`; a reader's never has it. */
export const canaryItemAttribute = 'canary';

/** Days before DynamoDB's TTL deletes a canary's item: it proves a run, not a lead. */
export const canaryRetentionDays = 1;

/**
 * How old a mark may be: a run takes seconds (its save, the proof of work, its send), so ten
 * minutes is room for a slow run and a clock a little off, while a mark copied from a log is
 * worthless soon after.
 */
export const canaryMarkMaxAgeSeconds = 600;

/** The SES mailbox simulator's domain: its success address accepts and delivers, reaching no one. */
export const simulatorDomain = 'simulator.amazonses.com';

/** The simulator's success address for one run: `success+<run>@simulator.amazonses.com`. */
export function canaryMailbox(run: string): string {
  if (!/^[a-z0-9-]{1,40}$/.test(run)) throw new Error(`"${run}" is not a canary run's name (a-z, 0-9, -)`);
  return `success+${run}@${simulatorDomain}`;
}

/** Whether the address is the simulator's success address of some run (the only one a mark may carry). */
export function isCanaryMailbox(email: string): boolean {
  return /^success\+[a-z0-9-]{1,40}@simulator\.amazonses\.com$/.test(email.trim().toLowerCase());
}

/** The mark's key: opaque, made only by `canaryMarkKeyFrom`. */
export interface CanaryMarkKey {
  readonly bytes: Uint8Array;
}

/** Its own purpose string, so the key equals no other key of the secret (address hashes, client keys). */
const purpose = 'canary request mark';

export function canaryMarkKeyFrom(deploymentSecret: string): CanaryMarkKey {
  if (deploymentSecret === '') throw new Error('The deployment secret is empty: no canary mark can be keyed');
  return { bytes: hmac(sha256, utf8ToBytes(deploymentSecret), utf8ToBytes(purpose)) };
}

const signature = (key: CanaryMarkKey, seconds: number, email: string) =>
  bytesToHex(hmac(sha256, key.bytes, utf8ToBytes(`${seconds}\n${email.trim().toLowerCase()}`)));

/** The header's value for a request to `email` made at `at`. */
export function signCanaryMark(key: CanaryMarkKey, email: string, at: Date): string {
  const seconds = Math.floor(at.getTime() / 1000);
  return `${seconds}.${signature(key, seconds, email)}`;
}

/** Compares two strings in a time that does not depend on where they differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/** Whether `mark` is the canary's for a request to `email` now: signed with the key, fresh, to the simulator. */
export function isValidCanaryMark(key: CanaryMarkKey, mark: string | undefined, email: string, now: Date): boolean {
  const match = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(mark?.trim() ?? '');
  if (!match || !isCanaryMailbox(email)) return false;
  const seconds = Number(match[1]);
  const age = Math.floor(now.getTime() / 1000) - seconds;
  if (Math.abs(age) > canaryMarkMaxAgeSeconds) return false;
  return sameText(match[2], signature(key, seconds, email));
}
