/**
 * The per-address cap's item id for an address: the hex SHA-256 of the trimmed, lower-cased address, so
 * the limit counters table holds no address. Shared by the send function (which writes the counter) and
 * the leads tool (which erases it). @noble/hashes: an audited, dependency-free SHA-256 that runs
 * wherever the core does, since the core uses no Node built-in.
 */

import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/** The quota item's id: the SHA-256 of the normalised address, never the address itself. */
export function addressDailyCapItemId(email: string): string {
  return bytesToHex(sha256(utf8ToBytes(email.trim().toLowerCase())));
}
