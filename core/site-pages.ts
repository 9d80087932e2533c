/**
 * The pre-rendered pages: one list, read by the build (frontend/build/prerender.ts writes each
 * file, the sitemap lists each path), the local server and CloudFront's path rewrite (both
 * serve each path's file with 200), so a page added here is built, served and listed at once.
 * Every other path is the not-found page, `notFoundFile`, with status 404.
 */

import { privacy, privacyPath } from './content/privacy';
import { notFound, site } from './content/site';

export interface SitePage {
  /** The clean URL path visitors use. */
  readonly path: string;
  /** The pre-rendered file at the site's root that answers it. */
  readonly file: string;
  /** The document's title. @default the site's title */
  readonly title?: string;
}

export const sitePages: readonly SitePage[] = [
  { path: '/', file: 'index.html' },
  { path: privacyPath, file: 'privacy.html', title: `${privacy.heading} · ${site.title}` },
];

/** The page every unknown path gets, with status 404. */
export const notFoundPage = { file: '404.html', title: `${notFound.message} · ${site.title}` } as const;

/** The listed page a request path names: its clean path or its file's own path (`/privacy.html`). */
export function sitePageAt(path: string): SitePage | undefined {
  return sitePages.find((page) => page.path === path || `/${page.file}` === path);
}
