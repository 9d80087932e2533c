/**
 * Writes what crawlers, link previews and home screens read into the built site: the Open Graph
 * image (from the cover), the touch icon and the manifest's icons (from the favicon), the web
 * manifest, robots.txt, and, when the site's address is known, sitemap.xml.
 */

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { book } from '../../core/content/book';
import type { SitePage } from '../../core/site-pages';
import {
  generatedImages,
  manifestPath,
  robotsPath,
  robotsTxt,
  sitemapPath,
  sitemapXml,
  themeColor,
  webManifest,
} from './crawler-metadata';
import { homeScreenIconSvg, openGraphSvg, renderPng } from './site-images';

export interface SiteFilesOptions {
  /** The built site, where the files go. */
  readonly siteDir: string;
  /** frontend/public: the cover and the favicon the images are made from. */
  readonly publicDir: string;
  /** The site's address (`SITE_URL`), or null: then there is no sitemap. */
  readonly siteUrl: string | null;
  /** The pages the sitemap lists: those search engines may index. */
  readonly indexablePages: readonly SitePage[];
}

/** Writes the files; returns their site paths. */
export async function writeSiteFiles({
  siteDir,
  publicDir,
  siteUrl,
  indexablePages,
}: SiteFilesOptions): Promise<string[]> {
  const written: string[] = [];
  const write = async (sitePath: string, content: string | Buffer) => {
    const target = path.join(siteDir, sitePath);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content);
    written.push(sitePath);
  };

  const coverSvg = await readFile(path.join(publicDir, book.cover.src), 'utf8');
  const faviconSvg = await readFile(path.join(publicDir, 'images/favicon.svg'), 'utf8');
  const { openGraph, appleTouchIcon, manifestIcons } = generatedImages;

  await write(openGraph.path, renderPng(openGraphSvg(coverSvg, openGraph.width, openGraph.height), openGraph.width));
  for (const icon of [appleTouchIcon, ...manifestIcons]) {
    await write(icon.path, renderPng(homeScreenIconSvg(faviconSvg, icon.width, themeColor), icon.width));
  }
  await write(manifestPath, webManifest());
  await write(robotsPath, robotsTxt(siteUrl));
  // A sitemap's addresses must be absolute: none without the site's address (and none left over).
  if (siteUrl === null) await rm(path.join(siteDir, sitemapPath), { force: true });
  else await write(sitemapPath, sitemapXml(siteUrl, indexablePages));
  return written;
}
