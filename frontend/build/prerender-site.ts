/**
 * The pre-render, given the client build's template and the server render: every page of
 * core/site-pages.ts to its file, the not-found page to `notFoundFile` (served for every unknown
 * path with 404), each with its title, description and what crawlers and link previews read
 * (crawler-metadata.ts), then the site's other crawler files (site-files.ts). The build runs it
 * from prerender.ts; the tests run it into a folder of their own with any site address.
 */

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { notFoundFile, sitePages, type SitePage } from '../../core/site-pages';
import { headTags } from './crawler-metadata';
import { fontFilesOf, withFontPreloads } from './font-preload';
import { withSiteMetadata, type RenderedPage } from './site-metadata';
import { writeSiteFiles } from './site-files';

export interface PrerenderOptions {
  /** The client build: its index.html is the template; the pages and files are written here. */
  readonly siteDir: string;
  /** frontend/public, which the images are made from. */
  readonly publicDir: string;
  /** src/entry-server.tsx's `render`. */
  readonly render: (path: string) => RenderedPage;
  /** The site's address (`SITE_URL`, see crawler-metadata.ts's parseSiteUrl), or null. */
  readonly siteUrl: string | null;
}

const appSlot = '<!--app-html-->';

/** One page's document: the template filled with the rendered page and its head tags. */
export function pageDocument(
  template: string,
  rendered: RenderedPage,
  page: SitePage | null,
  siteUrl: string | null,
): string {
  if (!template.includes(appSlot)) throw new Error(`The template has no ${appSlot} slot`);
  const html = template.replace(appSlot, rendered.html).replace('</head>', `  ${headTags(siteUrl, page)}\n  </head>`);
  return withSiteMetadata(html, rendered);
}

/** Writes every page and the crawler files; returns the files written, relative to `siteDir`. */
export async function prerenderSite({ siteDir, publicDir, render, siteUrl }: PrerenderOptions): Promise<string[]> {
  const clientTemplate = await readFile(path.join(siteDir, 'index.html'), 'utf8');
  const template = withFontPreloads(clientTemplate, await fontFilesOf(clientTemplate, siteDir));
  const write = async (file: string, html: string) => {
    const target = path.join(siteDir, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, html);
  };

  const indexablePages: SitePage[] = [];
  for (const page of sitePages) {
    const rendered = render(page.path);
    if (rendered.indexable) indexablePages.push(page);
    await write(page.file, pageDocument(template, rendered, page, siteUrl));
  }
  // Any path that is not a page renders the not-found page; this one stands for all of them.
  await write(notFoundFile, pageDocument(template, render('/404'), null, siteUrl));

  const siteFiles = await writeSiteFiles({ siteDir, publicDir, siteUrl, indexablePages });
  return [...sitePages.map((page) => page.file), notFoundFile, ...siteFiles.map((file) => file.slice(1))];
}
