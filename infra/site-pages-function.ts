/**
 * The code of the distribution's viewer-request CloudFront Function (infra/constructs/site.ts):
 * S3 has one object per page (`privacy.html`, `cheat-sheet/sent.html`), while the site's URLs
 * have no `.html`, so the function rewrites each page's path to its file before the request
 * reaches the bucket. Made from `core/site-pages.ts`, the list the build and the local server
 * use, so a new page needs no change here. Every other path passes unchanged: a missing key still gets 404.html with 404.
 * Plain data (no CDK import), so a test can run the very code CloudFront runs.
 */

import { sitePages, type SitePage } from '../core/site-pages';

export function sitePagesFunctionCode(pages: readonly SitePage[] = sitePages): string {
  // `/` is the distribution's default root object already. Every key starts with '/', so no
  // request URI can reach a property of Object.prototype.
  const files = Object.fromEntries(
    pages.filter((page) => page.path !== '/').map((page) => [page.path, `/${page.file}`]),
  );
  return [
    // cloudfront-js-2.0: ES5.1 plus a few later features; kept to plain ES5 here.
    `var pageFiles = ${JSON.stringify(files)};`,
    'function handler(event) {',
    '  var request = event.request;',
    '  var file = pageFiles[request.uri];',
    '  if (file) request.uri = file;',
    '  return request;',
    '}',
    '',
  ].join('\n');
}
