import { emailSignOff } from '../../../core/content/author';
import { book } from '../../../core/content/book';
import { cheatSheetTitle } from '../../../core/content/cheat-sheet';
import { site } from '../../../core/content/site';
import { brandColours, fontStack } from '../../../core/documents/brand';
import { buildCheatSheetEmail, emailCopy, emailLinks, escapeHtml } from '../../../core/documents/cheat-sheet-email';
import { lureNames, realNames } from '../../support/name-lures';

/** Every part of the e-mail a reader sees. */
const wholeEmail = ({ subject, text, html }: ReturnType<typeof buildCheatSheetEmail>) =>
  [subject, text, html].join('\n');

describe('the cheat-sheet e-mail', () => {
  test('greets the visitor by name in both bodies', () => {
    const email = buildCheatSheetEmail({ name: 'Ada Owner' });

    expect(email.text.startsWith('Hello Ada Owner,\n')).toBe(true);
    expect(email.html).toContain('<p style="margin:0 0 16px">Hello Ada Owner,</p>');
  });

  test.each(realNames)('greets %p by name', (name) => {
    const email = buildCheatSheetEmail({ name });

    expect(email.text.split('\n')[0]).toBe(`Hello ${name},`);
    expect(email.html).toContain(`Hello ${escapeHtml(name)},`);
  });

  test.each(lureNames)('says only "Hello," to %p, and the name appears nowhere in the e-mail', (name) => {
    const email = buildCheatSheetEmail({ name });

    expect(email.text.split('\n')[0]).toBe('Hello,');
    expect(email.html).toContain('<p style="margin:0 0 16px">Hello,</p>');
    expect(wholeEmail(email)).not.toContain(name);
    expect(wholeEmail(email)).not.toContain(escapeHtml(name));
  });

  test('leaves out every host name and number of the lures, however the lure is cut', () => {
    const all = lureNames.map((name) => wholeEmail(buildCheatSheetEmail({ name }))).join('\n');

    for (const fragment of [
      'evil',
      'secure-login',
      'paypal',
      'lapyap',
      '800 555',
      'locked account',
      '\u202E',
      '\u200B',
    ]) {
      expect(all).not.toContain(fragment);
    }
  });

  test('names the book and says the PDF is attached', () => {
    const email = buildCheatSheetEmail({ name: 'Ada' });

    expect(email.text).toContain(`Thank you for reading ${book.title}.`);
    expect(email.text).toContain('attached to this email as a PDF');
    expect(email.html).toContain(`<strong>${escapeHtml(book.title)}</strong>`);
  });

  test('is signed by the author, by name, with no team and no doubled article', () => {
    const email = buildCheatSheetEmail({ name: 'Ada' });
    const lines = email.text.split('\n');

    expect(lines.slice(lines.indexOf(emailSignOff.closing), lines.indexOf(emailSignOff.closing) + 2)).toEqual([
      emailSignOff.closing,
      emailSignOff.signer,
    ]);
    expect(email.html).toContain(`${escapeHtml(emailSignOff.closing)}<br>${escapeHtml(emailSignOff.signer)}</p>`);
    expect(wholeEmail(email)).not.toMatch(/\bteam\b/);
    expect(wholeEmail(email)).not.toMatch(/\bThe The\b/);
  });

  test('links to the site and to the book, in both parts', () => {
    const { text, html } = buildCheatSheetEmail({ name: 'Ada' });

    expect(emailLinks.site).toBe(`${site.address}/`);
    expect(emailLinks.book).toBe(book.amazonUrl);
    for (const link of [emailLinks.site, emailLinks.book]) {
      expect(text).toContain(link);
      expect(html).toContain(`href="${escapeHtml(link)}"`);
    }
  });

  test("ends with why the reader got it and the privacy page's link, in both parts", () => {
    const { text, html } = buildCheatSheetEmail({ name: 'Ada' });

    expect(emailLinks.privacy).toBe(`${site.address}/privacy`);
    expect(text).toContain(`--\n${emailCopy.why}\n${emailCopy.privacy} ${emailLinks.privacy}\n`);
    expect(html).toContain(escapeHtml(emailCopy.why));
    expect(html).toContain(`href="${escapeHtml(emailLinks.privacy)}"`);
  });

  test("keeps its promise to be the only e-mail only when the reader did not join the author's list", () => {
    const joined = buildCheatSheetEmail({ name: 'Ada', joinedListAt: 'Kit' });
    const promise = "You also asked to join the author's mailing list: its e-mails come from Kit";
    expect(joined.text).toContain(promise);
    expect(joined.html).toContain(escapeHtml(promise));
    expect(joined.text + joined.html).not.toContain('It is the only e-mail we send you.');
    const declined = buildCheatSheetEmail({ name: 'Ada' });
    expect(declined.text).toContain('It is the only e-mail we send you.');
    expect(declined.text).not.toContain('mailing list');
  });

  test("is branded: the book's navy and gold, the page's font first with fallbacks every client has", () => {
    const { html } = buildCheatSheetEmail({ name: 'Ada' });

    expect(html).toContain(`background:${brandColours.navy}`);
    expect(html).toContain(brandColours.gold);
    expect(fontStack).toMatch(/^'Source Sans 3', .*Helvetica, Arial, sans-serif$/);
    expect(html).toContain(`font-family:${escapeHtml(fontStack)}`);
  });

  test('renders in narrow clients: one table at most 600 px wide, inline styles only, no image', () => {
    const { html } = buildCheatSheetEmail({ name: 'Ada' });

    expect(html).toContain('width="600"');
    expect(html).toContain('max-width:600px');
    expect(html).not.toMatch(/<style|<link|<img|<script/i);
  });

  test('has a fixed subject, whatever the name', () => {
    expect(buildCheatSheetEmail({ name: 'Eve\r\nBcc: victim@example.com' }).subject).toBe(`Your ${cheatSheetTitle}`);
  });

  test('escapes a greeted name in the HTML body', () => {
    const { html } = buildCheatSheetEmail({ name: "Zoë O'Brien" });

    expect(html).toContain('Hello Zoë O&#39;Brien,');
  });

  test('puts markup in no part of the e-mail: such a name is not greeted', () => {
    const email = buildCheatSheetEmail({ name: `<img src=x onerror="alert('x')"> & co` });

    expect(email.html).not.toContain('<img');
    expect(wholeEmail(email)).not.toContain('onerror');
  });

  test('greets a name given with a line break on one line', () => {
    const { text, html } = buildCheatSheetEmail({ name: 'Ada\r\nLovelace' });

    expect(text.split('\n')[0]).toBe('Hello Ada Lovelace,');
    expect(html).toContain('Hello Ada Lovelace,');
  });
});

describe('escapeHtml', () => {
  test('escapes the five characters that matter in HTML text and attributes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
