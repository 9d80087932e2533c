/**
 * The small HTML page the form route answers a refused request with (a 4xx: a field out of its
 * limits, a body too large...). It comes from the function, not the site, so it is
 * self-contained: no script, no stylesheet (whose hashed name only the build knows), nothing inline
 * that the Content-Security-Policy would block. The reason is one of the API's fixed sentences,
 * escaped all the same.
 */

import { formRefusalPage } from '../content/form-results';
import { site } from '../content/site';
import { escapeHtml } from './cheat-sheet-email';

/** `siteTitle`: the page title's second part, the site's (the book's title and subtitle) unless given. */
export function buildFormRefusalPage(reason: string, siteTitle: string = site.title): string {
  const title = escapeHtml(formRefusalPage.title);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${title} · ${escapeHtml(siteTitle)}</title>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${title}</h1>`,
    `<p>${escapeHtml(reason)}</p>`,
    `<p><a href="${escapeHtml(formRefusalPage.link.href)}">${escapeHtml(formRefusalPage.link.label)}</a></p>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
