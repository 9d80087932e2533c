import { book } from '../../../core/content/book';
import { buildCheatSheetEmail, escapeHtml } from '../../../core/documents/cheat-sheet-email';

describe('the cheat-sheet e-mail', () => {
  test('greets the visitor by name in both bodies', () => {
    const email = buildCheatSheetEmail({ name: 'Ada Owner' });

    expect(email.text.startsWith('Hi Ada Owner,\n')).toBe(true);
    expect(email.html).toContain('<p style="margin:0 0 16px">Hi Ada Owner,</p>');
  });

  test('names the book and says the PDF is attached', () => {
    const email = buildCheatSheetEmail({ name: 'Ada' });

    expect(email.text).toContain(`Thank you for reading ${book.title}.`);
    expect(email.text).toContain('attached to this email as a PDF');
    expect(email.html).toContain(`<strong>${book.title}</strong>`);
  });

  test('has a fixed subject, whatever the name', () => {
    expect(buildCheatSheetEmail({ name: 'Eve\r\nBcc: victim@example.com' }).subject).toBe(
      'Your MPC 100-Day Cheat Sheet',
    );
  });

  test('escapes the name in the HTML body', () => {
    const { html } = buildCheatSheetEmail({ name: `<img src=x onerror="alert('x')"> & co` });

    expect(html).toContain('Hi &lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; co,');
    expect(html).not.toContain('<img');
  });

  test('keeps the name on one line even if given line breaks', () => {
    const { text, html } = buildCheatSheetEmail({ name: 'Eve\r\nX-Injected: yes' });

    expect(text.split('\n')[0]).toBe('Hi Eve X-Injected: yes,');
    expect(html).toContain('Hi Eve X-Injected: yes,');
  });
});

describe('escapeHtml', () => {
  test('escapes the five characters that matter in HTML text and attributes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
