/**
 * The cheat-sheet e-mail's subject and bodies. The subject is fixed text (visitor input never
 * goes into a header); the visitor's name appears only in the bodies, made single-line, and
 * HTML-escaped in the HTML body.
 */

import { book } from '../content/book';
import { cheatSheetTitle } from '../content/cheat-sheet';
import { toSingleLine } from '../api/request-schema';

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
  const visitorName = toSingleLine(name);
  const subject = `Your ${cheatSheetTitle}`;

  const text = [
    `Hi ${visitorName},`,
    '',
    `Thank you for reading ${book.title}. Your ${cheatSheetTitle} is attached to this email as a PDF.`,
    '',
    'It sums up the MPC Framework on one page: the three phases of your first 100 days, what to do for Money, People and Capacity in each, and a checklist for your first week.',
    '',
    'To your first 100 days,',
    `The ${book.title} team`,
    '',
  ].join('\n');

  const paragraph = (content: string) => `<p style="margin:0 0 16px">${content}</p>`;
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><title>' + escapeHtml(subject) + '</title></head>',
    '<body style="margin:0;padding:24px;font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#1f2937">',
    paragraph(`Hi ${escapeHtml(visitorName)},`),
    paragraph(
      `Thank you for reading <strong>${escapeHtml(book.title)}</strong>. Your ${escapeHtml(
        cheatSheetTitle,
      )} is attached to this email as a PDF.`,
    ),
    paragraph(
      'It sums up the MPC Framework on one page: the three phases of your first 100 days, what to do for Money, People and Capacity in each, and a checklist for your first week.',
    ),
    paragraph(`To your first 100 days,<br>The ${escapeHtml(book.title)} team`),
    '</body>',
    '</html>',
    '',
  ].join('\n');

  return { subject, html, text };
}
