import { emailSignOff } from '../../../core/content/author';
import { book } from '../../../core/content/book';
import { cheatSheetTitle } from '../../../core/content/cheat-sheet';
import { buildCheatSheetEmail, escapeHtml } from '../../../core/documents/cheat-sheet-email';
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

    expect(email.text.trimEnd().split('\n').slice(-2)).toEqual([emailSignOff.closing, emailSignOff.signer]);
    expect(email.html).toContain(`${escapeHtml(emailSignOff.closing)}<br>${escapeHtml(emailSignOff.signer)}</p>`);
    expect(wholeEmail(email)).not.toMatch(/\bteam\b/);
    expect(wholeEmail(email)).not.toMatch(/\bThe The\b/);
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
