/**
 * The cheat-sheet e-mail's subject and bodies. The subject is fixed text (visitor input never
 * goes into a header). The visitor's name appears only in the greeting, and only when it reads
 * as a name (greeting-name.ts): otherwise the e-mail says `Hello,` and holds nothing the visitor
 * typed. In the HTML body the name is escaped as well. The e-mail is signed by the author.
 *
 * The HTML is the book's: a navy band with the title, the page's font with fallbacks every mail
 * client has, links to the site and the book, and a footer saying why the reader got it, with
 * the privacy page's link. It is one 600 px table with inline styles only (no stylesheet, no
 * image), which narrow and old clients render alike; the text part says the same.
 */

import { book } from '../content/book';
import { cheatSheetTitle, emailSummary } from '../content/cheat-sheet';
import { emailSignOff } from '../content/author';
import { site } from '../content/site';
import { toSingleLine } from '../api/request-schema';
import { privacyPath } from '../site-pages';
import { brandColours, fontStack } from './brand';
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

/** The links the e-mail gives, from the content (never from the request). */
export const emailLinks = {
  site: `${site.address}/`,
  book: book.amazonUrl,
  privacy: `${site.address}${privacyPath}`,
} as const;

export const emailCopy = {
  siteLink: 'Visit the site',
  bookLink: 'Get the book on Amazon',
  why: `You are receiving this e-mail because you asked for the free cheat sheet on the site of ${book.title}. It is the only e-mail we send you.`,
  /** With `joinedListAt`: the reader ticked the mailing-list box, so this is not the only e-mail. */
  whyJoined: (listAt: string) =>
    `You are receiving this e-mail because you asked for the free cheat sheet on the site of ${book.title}. You also asked to join the author's mailing list: its e-mails come from ${listAt}, each with a link to unsubscribe.`,
  privacy: 'How we handle your data:',
} as const;

const { navy, gold, ink, muted, tint } = brandColours;

const paragraph = (content: string) => `<p style="margin:0 0 16px">${content}</p>`;

const button = (href: string, label: string, background: string, color: string) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;margin:0 8px 8px 0;padding:10px 18px;border-radius:999px;background:${background};color:${color};font-weight:600;text-decoration:none">${escapeHtml(label)}</a>`;

export function buildCheatSheetEmail({
  name,
  joinedListAt,
}: {
  readonly name: string;
  /**
   * The mail provider (its name) whose list the reader chose to join; none: this e-mail is the only
   * one. From the stored request, `mailingListJoinedAt(item)` (core/data/consent.ts), however late the e-mail is built.
   */
  readonly joinedListAt?: string;
}): CheatSheetEmail {
  const why = joinedListAt === undefined ? emailCopy.why : emailCopy.whyJoined(joinedListAt);
  // The schema already made the name single-line; doing it again keeps this builder safe on its own.
  const visitorName = greetingNameOf(toSingleLine(name));
  const greeting = visitorName === undefined ? 'Hello,' : `Hello ${visitorName},`;
  const subject = `Your ${cheatSheetTitle}`;
  const thanks = `Thank you for reading ${book.title}. Your ${cheatSheetTitle} is attached to this email as a PDF.`;

  const text = [
    greeting,
    '',
    thanks,
    '',
    emailSummary,
    '',
    emailSignOff.closing,
    emailSignOff.signer,
    '',
    `${emailCopy.siteLink}: ${emailLinks.site}`,
    `${emailCopy.bookLink}: ${emailLinks.book}`,
    '',
    '--',
    why,
    `${emailCopy.privacy} ${emailLinks.privacy}`,
    '',
  ].join('\n');

  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>' +
      escapeHtml(subject) +
      '</title></head>',
    `<body style="margin:0;padding:0;background:${tint}">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${tint}"><tr><td align="center" style="padding:24px 12px">`,
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:12px;font-family:${escapeHtml(fontStack)};font-size:16px;line-height:1.55;color:${ink}">`,
    `<tr><td style="background:${navy};border-radius:12px 12px 0 0;border-bottom:4px solid ${gold};padding:24px 32px">`,
    `<p style="margin:0;color:#ffffff;font-size:22px;font-weight:700;line-height:1.2">${escapeHtml(book.title)}</p>`,
    `<p style="margin:6px 0 0;color:${gold};font-size:15px;font-weight:600">${escapeHtml(book.subtitle)}</p>`,
    '</td></tr>',
    '<tr><td style="padding:28px 32px 12px">',
    paragraph(escapeHtml(greeting)),
    paragraph(
      `Thank you for reading <strong>${escapeHtml(book.title)}</strong>. Your ${escapeHtml(
        cheatSheetTitle,
      )} is attached to this email as a PDF.`,
    ),
    paragraph(escapeHtml(emailSummary)),
    paragraph(`${escapeHtml(emailSignOff.closing)}<br>${escapeHtml(emailSignOff.signer)}`),
    `<p style="margin:8px 0 16px">${button(emailLinks.site, emailCopy.siteLink, navy, '#ffffff')}${button(emailLinks.book, emailCopy.bookLink, gold, navy)}</p>`,
    '</td></tr>',
    `<tr><td style="padding:16px 32px 24px;border-top:1px solid #d9dee5;font-size:13px;line-height:1.5;color:${muted}">`,
    `<p style="margin:0 0 8px">${escapeHtml(why)}</p>`,
    `<p style="margin:0">${escapeHtml(emailCopy.privacy)} <a href="${escapeHtml(emailLinks.privacy)}" style="color:${navy}">${escapeHtml(emailLinks.privacy)}</a></p>`,
    '</td></tr>',
    '</table>',
    '</td></tr></table>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

  return { subject, html, text };
}
