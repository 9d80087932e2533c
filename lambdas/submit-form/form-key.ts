/**
 * The idempotency key of a form post: a browser posting the form has no script to make one, so it
 * is derived from who posts (the client's keyed hash, client-address.ts), the normalized mailbox
 * (address-normalization.ts) and a 10-minute window. A double click, a reload that re-posts or a
 * "back, submit again" lands within it and gets the first post's outcome; 10 minutes is longer
 * than any of those, and shorter than a reader takes to decide a lost e-mail needs a second copy
 * (which the daily cap then allows). A post at the window's edge may start a new key: at worst one
 * more e-mail, within the caps.
 *
 * Both the key and the mailbox the key's record is checked against are HMAC-SHA-256 under the
 * client's key (itself keyed with the deployment's secret, client-address.ts): the idempotency
 * table holds no hash anyone holding the address could recompute. `npm run leads -- erase` finds
 * the records through the key the request stores.
 */

import { createHmac } from 'node:crypto';
import { normalizedAddress } from '../../core/data/address-normalization';

/** The window one key covers. */
export const formKeyWindowMs = 10 * 60 * 1000;

export function formIdempotencyKey(clientKey: string, email: string, at: Date): string {
  const window = Math.floor(at.getTime() / formKeyWindowMs);
  return createHmac('sha256', clientKey)
    .update(`form\n${normalizedAddress(email)}\n${window}`)
    .digest('hex');
}

/** What a repeat of the post must match: its mailbox, as a keyed hash (no address in the record). */
export function formPayloadMailbox(clientKey: string, email: string): string {
  return createHmac('sha256', clientKey)
    .update(`form mailbox\n${normalizedAddress(email)}`)
    .digest('hex');
}
