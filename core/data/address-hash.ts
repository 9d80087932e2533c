/**
 * Every hash of an e-mail address the tables store (the daily cap's counter, the suppression
 * entry) is an HMAC-SHA-256 under a key derived from the deployment's secret (the origin secret
 * behind CloudFront, the run's `CLIENT_ADDRESS_KEY` locally), for this purpose only: the client
 * counters and the idempotency records derive keys of their own from the same secret. Without the
 * secret no one can tell, from the tables, whether an address they hold was ever there; a plain
 * SHA-256 could be matched by anyone holding the address.
 *
 * Shared by the send and save functions (which read the ids), the SES events function (which
 * writes the suppression entry) and the leads tool (which erases them). @noble/hashes: an audited,
 * dependency-free SHA-256 and HMAC that run wherever the core does, since the core uses no Node
 * built-in.
 */

import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/** The key the address hashes are taken under: opaque, made only by `addressHashKeyFrom`. */
export interface AddressHashKey {
  readonly bytes: Uint8Array;
}

/** What the key is derived for: its own purpose string, so it equals no other key of the secret. */
const purpose = 'cheat-sheet address hashes';

/** The address hashes' key, derived from the deployment's secret (HMAC-SHA-256 of the purpose). */
export function addressHashKeyFrom(deploymentSecret: string): AddressHashKey {
  if (deploymentSecret === '') throw new Error('The deployment secret is empty: no address hash can be keyed');
  return { bytes: hmac(sha256, utf8ToBytes(deploymentSecret), utf8ToBytes(purpose)) };
}

const canonical = (email: string) => utf8ToBytes(email.trim().toLowerCase());

/** The keyed hash of the trimmed, lower-cased address: hex, 64 characters, no `#`. */
export function addressHash(email: string, key: AddressHashKey): string {
  return bytesToHex(hmac(sha256, key.bytes, canonical(email)));
}

/** The daily cap's item id for an address: its keyed hash, never the address itself. */
export function addressDailyCapItemId(email: string, key: AddressHashKey): string {
  return addressHash(email, key);
}

/**
 * The plain SHA-256 the ids were before they were keyed: read (a suppression entry) and erased,
 * never written. Daily-cap items under it expire within a day of their last send; suppression
 * entries have no expiry and are moved to keyed ids by `npm run leads -- rekey` (docs/operate.md,
 * 'Keyed address hashes').
 */
export function legacyAddressHash(email: string): string {
  return bytesToHex(sha256(canonical(email)));
}
