/**
 * One mailbox, one cap: the form of an address the per-address cap counts, so the spellings
 * that reach the same inbox share one counter. The address the visitor typed is still the one
 * mailed and stored; this form only keys the cap and finds an address's items for erasure.
 *
 * - Lower-cased: every provider that matters treats the local part case-insensitively, though
 *   RFC 5321 lets it not to.
 * - The `+tag` of the local part dropped (`v+1@example.com` is `v@example.com`): Gmail, Outlook,
 *   iCloud, Fastmail, Proton and most self-hosted servers deliver sub-addresses to the base
 *   mailbox. A provider that does not merely has a few addresses share one cap.
 * - For gmail.com and googlemail.com (one service, two names), the dots of the local part
 *   ignored, as Gmail ignores them, and googlemail.com read as gmail.com. Only there: elsewhere
 *   dots distinguish mailboxes (`j.smith` and `jsmith` are two people at most companies).
 */

const gmailDomains: ReadonlySet<string> = new Set(['gmail.com', 'googlemail.com']);

/** The address the per-address cap counts (see above); an input without `@` is only trimmed and lower-cased. */
export function normalizedAddress(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  // `+tag@…` with nothing before the `+` has no base mailbox to fold into: kept whole.
  if (plus > 0) local = local.slice(0, plus);
  if (gmailDomains.has(domain)) {
    local = local.replaceAll('.', '') || local;
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** Whether two addresses reach the same mailbox as far as the cap is concerned. */
export function sameMailbox(a: string, b: string): boolean {
  return normalizedAddress(a) === normalizedAddress(b);
}
