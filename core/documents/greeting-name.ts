/**
 * Whether the name a visitor typed may greet them in the cheat-sheet e-mail. The e-mail is
 * DKIM-signed by the author's domain and goes to any address typed into the form, so whatever
 * the name says is said in the author's voice to a stranger: a name that could carry a link, a
 * host name, a phone number or text that displays differently from what it holds is left out
 * (the e-mail then says `Hello,`). The rule is an allow-list, not a list of bad top-level
 * domains: any `letters.letters` could be a domain, whatever the list of the day says.
 *
 * A name is greeted when it is:
 * - words of letters of any script (`\p{L}`, with their combining marks `\p{M}`), one space
 *   between words;
 * - apostrophes (' and ’) and hyphens only between two letters (`O'Brien-Smith`);
 * - periods only after a letter (`J. R. Tolkien`, `J.R. Tolkien`), and never followed by two
 *   or more letters (`evil.de`, `paypal-verify.zip`: a host name);
 * - at most 40 characters (code points): a greeting, not a message.
 *
 * Everything else fails the allow-list, among it digits, `@`, `:`, `/`, look-alike punctuation
 * (the full-width colon of `https：//`, the one-dot leader `․`) and every control or format
 * character (bidi overrides such as U+202E, zero-width characters, the soft hyphen). A name that
 * needs a zero-width joiner (some Persian and Indic spellings) is therefore not greeted either:
 * the cost is a plain `Hello,`.
 */

/** The longest name the e-mail greets, in characters (code points). */
export const maxGreetingNameLength = 40;

/** Any control (`Cc`) or format (`Cf`) character: line breaks, bidi overrides, zero-width ones, soft hyphen. */
const controlOrFormat = /[\p{Cc}\p{Cf}]/u;

/** A run of letters, each with its combining marks; hyphens and apostrophes only inside the run. */
const letters = String.raw`\p{L}\p{M}*(?:[\-'’]?\p{L}\p{M}*)*`;
/** A word: letter runs joined by periods, optionally ending in one (`J.R.`, `Jr.`). */
const word = String.raw`${letters}(?:\.${letters})*\.?`;
const nameShape = new RegExp(String.raw`^${word}(?: ${word})*$`, 'u');

/** `letters.letters` with two or more letters after the period: reads as a host name. */
const hostNameLike = /\p{L}\p{M}*\.\p{L}\p{M}*\p{L}/u;

/** The name to greet the visitor with, or undefined when it does not read as a name. */
export function greetingNameOf(name: string): string | undefined {
  const text = name.trim();
  if (text === '' || [...text].length > maxGreetingNameLength) return undefined;
  if (controlOrFormat.test(text)) return undefined;
  if (!nameShape.test(text) || hostNameLike.test(text)) return undefined;
  return text;
}

/** Line breaks and tabs: they separate words, so they become a space rather than join them. */
const whitespaceControls = /\r\n|[\t\n\v\f\r\u0085]/g;

/**
 * An emoji tag sequence (a black flag, tags, the cancel tag: the flags of England, Scotland,
 * Wales): its tags are format characters, yet together they are one picture.
 */
const emojiTagSequence = String.raw`\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}`;
/**
 * The zero-width non-joiner and joiner (U+200C, U+200D): format characters that Persian, Indic
 * scripts and emoji sequences (a family, a profession) need to be written as people write them.
 */
const joiners = '\u200C\u200D';
/**
 * What is removed: every control character and every other format character (bidi overrides
 * such as U+202E, the zero-width space, the soft hyphen, the BOM, stray tags), each of which could
 * make a name read differently from what it holds. An emoji tag sequence is skipped whole.
 */
const misleadingCharacters = new RegExp(String.raw`(${emojiTagSequence})|[\p{Cc}[\p{Cf}--[${joiners}]]]`, 'gv');

/**
 * The name as stored: what was typed, with control characters and the format characters that
 * could mislead a reader of the leads removed (line breaks and tabs become a space). Letters,
 * marks, the joiners and every emoji sequence stay: the author's export shows what the visitor
 * wrote, and the leads CSV neutralises formulas on its own.
 */
export function cleanStoredName(name: string): string {
  return name
    .replace(whitespaceControls, ' ')
    .replace(misleadingCharacters, (_match: string, tagSequence: string | undefined) => tagSequence ?? '');
}
