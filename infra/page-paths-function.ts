/**
 * The code of the CloudFront Function (viewer request, the site's default behaviour) that maps
 * each clean page path of core/site-pages.ts to its pre-rendered file: `/privacy` is served from
 * `privacy.html` with 200. Generated from the same list the build and the local server read, so a
 * new page needs no change here. Every other path passes unchanged: a missing key still gets
 * 404.html with 404.
 */

import type { SitePage } from '../core/site-pages';

export function pagePathsFunctionCode(pages: readonly SitePage[]): string {
  const files = Object.fromEntries(pages.map((page) => [page.path, `/${page.file}`]));
  return [
    '// Generated from core/site-pages.ts by infra/page-paths-function.ts.',
    `var files = ${JSON.stringify(files)};`,
    'function handler(event) {',
    '  var request = event.request;',
    '  if (Object.prototype.hasOwnProperty.call(files, request.uri)) request.uri = files[request.uri];',
    '  return request;',
    '}',
    '',
  ].join('\n');
}
