/**
 * Every pre-rendered page the site serves with status 200: its path and the file that holds it.
 * The build renders each one (`frontend/build/prerender.ts`) and lists it in sitemap.xml, the
 * local server serves it (`local/static-site.ts`) and CloudFront maps its path to its file (a
 * CloudFront Function made from this list, `infra/site-pages-function.ts`): a new page is added
 * here and nowhere else. The not-found page has no path of its own: it is `notFoundFile`,
 * served for every other path with 404.
 */

import { privacyPath } from './content/privacy';

export interface SitePage {
  /** The URL path, e.g. `/privacy`. */
  readonly path: string;
  /** The file in the built site, e.g. `privacy.html`. */
  readonly file: string;
}

/** `/privacy` is `privacy.html`. */
const fileFor = (path: string) => `${path.replace(/^\//, '')}.html`;

export const sitePages: readonly SitePage[] = [
  { path: '/', file: 'index.html' },
  { path: privacyPath, file: fileFor(privacyPath) },
];

/** The page every path that is not in `sitePages` gets, with status 404. */
export const notFoundFile = '404.html';

/**
 * The page served at a path, if the site has one there: at its path, or at its file's own path
 * (`/privacy.html`), which S3 and the local server serve as a file anyway.
 */
export function sitePageAt(path: string): SitePage | undefined {
  return sitePages.find((page) => page.path === path || `/${page.file}` === path);
}
