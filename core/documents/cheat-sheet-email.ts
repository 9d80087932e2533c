/**
 * The cheat-sheet e-mail's subject and bodies. The subject is fixed text (visitor input never
 * goes into a header). The visitor's name appears only in the greeting, and only when it reads
 * as a name (greeting-name.ts): otherwise the e-mail says `Hello,` and holds nothing the visitor
 * typed. In the HTML body the name is escaped as well. The e-mail is signed by the author.
 */

import { book } from '../content/book';
import { cheatSheetTitle, emailSummary } from '../content/cheat-sheet';
import { emailSignOff } from '../content/author';
import { toSingleLine } from '../api/request-schema';
import { greetingNameOf } from './greeting-name';

export interface CheatSheetEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

const htmlEscapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => htmlEscapes[character] ?? character);
}

export function buildCheatSheetEmail({ name }: { readonly name: string }): CheatSheetEmail {
  // The schema already made the name single-line; doing it again keeps this builder safe on its own.
  const visitorName = greetingNameOf(toSingleLine(name));
  const greeting = visitorName === undefined ? 'Hello,' : `Hello ${visitorName},`;
  const subject = `Your ${cheatSheetTitle}`;

  const text = [
    greeting,
    '',
    `Thank you for reading ${book.title}. Your ${cheatSheetTitle} is attached to this email as a PDF.`,
    '',
    emailSummary,
    '',
    emailSignOff.closing,
    emailSignOff.signer,
    '',
  ].join('\n');

  const paragraph = (content: string) => `<p style="margin:0 0 16px">${content}</p>`;
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><title>' + escapeHtml(subject) + '</title></head>',
    '<body style="margin:0;padding:24px;font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#1f2937">',
    paragraph(escapeHtml(greeting)),
    paragraph(
      `Thank you for reading <strong>${escapeHtml(book.title)}</strong>. Your ${escapeHtml(
        cheatSheetTitle,
      )} is attached to this email as a PDF.`,
    ),
    paragraph(escapeHtml(emailSummary)),
    paragraph(`${escapeHtml(emailSignOff.closing)}<br>${escapeHtml(emailSignOff.signer)}`),
    '</body>',
    '</html>',
    '',
  ].join('\n');

  return { subject, html, text };
}
