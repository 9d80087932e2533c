/**
 * The one validation of a cheat-sheet request, `{name, email, website?}`, shared by both functions. The
 * page shares its limits (request-limits.ts) without paying for zod.
 *
 * Policy:
 * - Both fields are trimmed. The name's control characters (CR, LF, tab, NUL, ...) and line
 *   separators become spaces and runs of spaces collapse, so nothing a visitor types can break a
 *   line anywhere the name is used; then it must hold 1 to 100 characters.
 * - The name is mailed, from our verified sender, to whatever address is given: so it must not
 *   carry anything a mail client would turn into a link (`://`, `www.`, an `@`, or a word ending
 *   in a dot and a common top-level domain, e.g. `evil.example`). 'J.R. Smith', 'Mr.Smith' and
 *   "O'Brien" are names; 'visit evil.example' is not.
 * - The name may not hold a lone surrogate (half of a UTF-16 pair, which JSON's `\ud800` can
 *   carry): it is no character at all, and would be stored as garbage.
 * - The e-mail must be 1 to 254 characters and a plain address (zod's e-mail format: no display
 *   name, no spaces, no CR/LF), with at most 64 characters before the `@` (RFC 5321) and at most
 *   63 in each dot-separated label after it (RFC 1035): an address past either limit cannot be
 *   delivered, so it is the visitor's 400 here rather than a DNS or SES failure later. It is
 *   lower-cased, so the daily cap cannot be dodged by changing letter case.
 * - `website` is the form's honeypot, an input people never see: optional, text, at most 2,048
 *   characters, trimmed. When it holds anything, a script filled the form in
 *   (`isHoneypotFilled`): both routes answer as on success and store and send nothing.
 * - Unknown keys are ignored, never stored: the page's insert also sends `cheat_sheet_sent`,
 *   which the server always sets itself.
 * - `hasBook` is the ticked confirmation, `true` from the page and the form: with it, the saved
 *   request records the reader's consent (core/data/consent.ts).
 * - `mailingList` is the reader's own choice to join the author's mailing list, `true` when
 *   ticked: offered only with a mail provider; without `hasBook` it records nothing.
 * - No message mentions 'domain' or 'verify': the page reserves those words for SES's
 *   unverified-sender error.
 */

// zod/mini: the same validation, tree-shakable; the classic API adds ~450 KB to each bundle.
import * as z from 'zod/mini';

import {
  maxDomainLabelLength,
  maxEmailLength,
  maxEmailLocalPartLength,
  maxNameLength,
  maxWebsiteLength,
} from './request-limits';

export { maxDomainLabelLength, maxEmailLength, maxEmailLocalPartLength, maxNameLength, maxWebsiteLength };

// C0 and C1 control characters, DEL, and the Unicode line and paragraph separators.
const lineBreakingCharacters = /[\p{Cc}\u2028\u2029]+/gu;

/** Makes visitor text single-line and tidy: control characters become spaces, spaces collapse. */
export function toSingleLine(text: string): string {
  return text.replace(lineBreakingCharacters, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Top-level domains that mail clients link and spammers use, plus the reserved `example`. Short
 * on purpose: no two-letter ones that are also common name parts after an initial (de, la, al,
 * ai, in...), so 'Mr.De Souza' stays a name.
 */
const linkedTopLevelDomains = [
  'com',
  'net',
  'org',
  'info',
  'biz',
  'io',
  'co',
  'me',
  'xyz',
  'ru',
  'cn',
  'uk',
  'us',
  'eu',
  'app',
  'dev',
  'link',
  'click',
  'top',
  'site',
  'online',
  'shop',
  'store',
  'live',
  'club',
  'tk',
  'ml',
  'ga',
  'cf',
  'gq',
  'pw',
  'su',
  'ws',
  'cc',
  'tv',
  'ly',
  'example',
];

/** Any of the dots a mail client may read as one: full stop, ideographic and full-width stops. */
const dot = '[.\u3002\uFF0E\uFF61]';
const linkLikePatterns = [
  /:\/\//,
  new RegExp(`www${dot}`, 'iu'),
  /@/,
  new RegExp(`[\\p{L}\\p{N}-]${dot}(?:${linkedTopLevelDomains.join('|')})(?![\\p{L}\\p{N}-])`, 'iu'),
];

/** Whether a name holds something a mail client would show as a link or an address. */
export function looksLikeLink(text: string): boolean {
  return linkLikePatterns.some((pattern) => pattern.test(text));
}

/** No 'domain' or 'verify' in it: the page keys its configuration error on those words. */
export const justYourNameMessage = 'Please enter just your name.';

/** Half of a UTF-16 surrogate pair with no other half: with the `u` flag, \p{Cs} matches only those. */
const loneSurrogate = /\p{Cs}/u;

/** Whether a string holds a lone surrogate (no character, only half of one). */
export function hasLoneSurrogate(text: string): boolean {
  return loneSurrogate.test(text);
}

export const nameNotTextMessage = 'Name must be text.';

const name = z.pipe(
  z.pipe(
    z
      .string({ error: (issue) => (issue.input === undefined ? 'Please enter your name.' : nameNotTextMessage) })
      .check(z.refine((text: string) => !hasLoneSurrogate(text), nameNotTextMessage)),
    z.transform(toSingleLine),
  ),
  z.string().check(
    z.minLength(1, 'Please enter your name.'),
    z.maxLength(maxNameLength, `Name must be at most ${maxNameLength} characters.`),
    z.refine((text: string) => !looksLikeLink(text), justYourNameMessage),
  ),
);

const email = z.pipe(
  z
    .string({
      error: (issue) => (issue.input === undefined ? 'Please enter your email address.' : 'Email must be text.'),
    })
    .check(
      z.trim(),
      z.minLength(1, 'Please enter your email address.'),
      z.maxLength(maxEmailLength, `Email must be at most ${maxEmailLength} characters.`),
    ),
  z.email('Please enter a valid email address.').check(
    z.refine(
      (address: string) => address.slice(0, address.lastIndexOf('@')).length <= maxEmailLocalPartLength,
      `The part of the email address before the @ must be at most ${maxEmailLocalPartLength} characters.`,
    ),
    z.refine(
      (address: string) =>
        address
          .slice(address.lastIndexOf('@') + 1)
          .split('.')
          .every((label) => label.length <= maxDomainLabelLength),
      `Each dot-separated part of the email address after the @ must be at most ${maxDomainLabelLength} characters.`,
    ),
    z.toLowerCase(),
  ),
);

const website = z.optional(
  z
    .string({ error: 'Website must be text.' })
    .check(z.trim(), z.maxLength(maxWebsiteLength, `Website must be at most ${maxWebsiteLength} characters.`)),
);

/**
 * 'I confirm that I have purchased the book', as the page sends it: `true` when ticked. Optional,
 * so a direct call without it stays valid; a request that has it stores the reader's consent.
 */
const hasBook = z.optional(z.boolean({ error: 'hasBook must be true or false.' }));

/** "Also add me to the author's mailing list" (the author's words), as the page sends it: `true` when ticked. */
const mailingList = z.optional(z.boolean({ error: 'mailingList must be true or false.' }));

export const cheatSheetRequestSchema = z.object(
  { name, email, website, hasBook, mailingList },
  { error: 'The request body must be a JSON object with a name and an email.' },
);

export type CheatSheetRequest = z.output<typeof cheatSheetRequestSchema>;

/** Whether the honeypot holds anything: no person sees the field, so a script filled the form in. */
export function isHoneypotFilled(request: CheatSheetRequest): boolean {
  return (request.website ?? '') !== '';
}

export type RequestParseResult =
  | { readonly success: true; readonly data: CheatSheetRequest }
  | { readonly success: false; readonly error: string };

/** Validates an already JSON-decoded body; on failure, the first problem in plain words. */
export function parseCheatSheetRequest(body: unknown): RequestParseResult {
  const result = cheatSheetRequestSchema.safeParse(body);
  if (result.success) return { success: true, data: result.data };
  return { success: false, error: result.error.issues[0]?.message ?? 'Invalid request.' };
}

/**
 * One address alone, by the same rule as a request's (trimmed, lower-cased, a plain address):
 * for the tools that look an address up, as it was stored.
 */
export function parseEmailAddress(
  text: string,
): { readonly success: true; readonly email: string } | { readonly success: false; readonly error: string } {
  const result = email.safeParse(text);
  if (result.success) return { success: true, email: result.data };
  return { success: false, error: result.error.issues[0]?.message ?? 'Invalid email address.' };
}
