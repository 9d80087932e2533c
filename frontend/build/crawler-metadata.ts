/**
 * What crawlers and link previews read, as pure functions of the content and the site's address
 * (`SITE_URL` at build time, optional): the head tags (canonical, Open Graph, Twitter card, touch
 * icon, manifest), the JSON-LD of the book and its author, sitemap.xml, robots.txt and the web
 * manifest. The build (prerender-site.ts, site-files.ts) writes them; the tests call them with any
 * address.
 */

import { author } from '../../core/content/author';
import { book } from '../../core/content/book';
import { site } from '../../core/content/site';
import type { SitePage } from '../../core/site-pages';

/** The generated images, at the site's root. */
export const generatedImages = {
  openGraph: { path: '/images/og-image.png', width: 1200, height: 630 },
  appleTouchIcon: { path: '/apple-touch-icon.png', width: 180, height: 180 },
  manifestIcons: [
    { path: '/images/icon-192.png', width: 192, height: 192 },
    { path: '/images/icon-512.png', width: 512, height: 512 },
  ],
} as const;

export const manifestPath = '/site.webmanifest';
export const sitemapPath = '/sitemap.xml';
export const robotsPath = '/robots.txt';

/** The site's navy: the browser's theme colour (as in index.html) and the icons' background. */
export const themeColor = '#0f2a44';

/** The link preview's image description. */
export const openGraphImageAlt = book.cover.alt;

/** An invalid SITE_URL: the message says what to pass. */
export class SiteUrlError extends Error {}

/**
 * `SITE_URL` as the base every absolute address starts from (an origin: no trailing slash), or
 * null when unset or blank. Anything but the root address of an http(s) site is refused.
 */
export function parseSiteUrl(value: string | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SiteUrlError(
      `SITE_URL "${text}" is not a URL: pass the site's address, e.g. SITE_URL=https://www.example.com`,
    );
  }
  // The site is served from its root (its assets are under /assets/), so the address is an origin.
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    url.username
  ) {
    throw new SiteUrlError(
      `SITE_URL "${text}" must be the site's root address, http(s) with no path, query, fragment or credentials, e.g. SITE_URL=https://www.example.com`,
    );
  }
  return url.origin;
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const absolute = (siteUrl: string | null, path: string) => (siteUrl === null ? path : `${siteUrl}${path}`);

/** The book and its author as schema.org JSON-LD. */
export function bookStructuredData(siteUrl: string | null, isbn: string | undefined = book.isbn): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'Book',
    name: book.title,
    alternativeName: book.subtitle,
    description: site.description,
    image: absolute(siteUrl, book.cover.src),
    ...(siteUrl !== null && { url: `${siteUrl}/` }),
    ...(isbn !== undefined && { isbn }),
    author: {
      '@type': 'Person',
      name: author.name,
      sameAs: author.social.map((link) => link.url),
    },
  };
}

/**
 * A `<script type="application/ld+json">`: data, not script, so the CSP's `script-src 'self'`
 * neither runs nor blocks it. Every `<` is escaped so no text can close the element.
 */
export function jsonLdElement(data: object): string {
  return `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
}

/** The tags every pre-rendered page gets in its head; `page` null for the not-found page. */
export function headTags(siteUrl: string | null, page: SitePage | null): string {
  const image = generatedImages.openGraph;
  const tags = [
    `<meta property="og:image" content="${escapeAttribute(absolute(siteUrl, image.path))}" />`,
    `<meta property="og:image:width" content="${image.width}" />`,
    `<meta property="og:image:height" content="${image.height}" />`,
    `<meta property="og:image:alt" content="${escapeAttribute(openGraphImageAlt)}" />`,
    '<meta name="twitter:card" content="summary_large_image" />',
    `<link rel="apple-touch-icon" href="${generatedImages.appleTouchIcon.path}" />`,
    `<link rel="manifest" href="${manifestPath}" />`,
  ];
  if (siteUrl !== null && page !== null) {
    const url = escapeAttribute(`${siteUrl}${page.path}`);
    tags.unshift(`<link rel="canonical" href="${url}" />`, `<meta property="og:url" content="${url}" />`);
  }
  if (page?.path === '/') tags.push(jsonLdElement(bookStructuredData(siteUrl)));
  return tags.join('\n    ');
}

/** Every listed page; only with a known address (a sitemap's URLs must be absolute). */
export function sitemapXml(siteUrl: string, pages: readonly SitePage[]): string {
  const urls = pages.map((page) => `  <url><loc>${escapeAttribute(`${siteUrl}${page.path}`)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** Everything may be crawled; the sitemap is named when there is one. */
export function robotsTxt(siteUrl: string | null): string {
  return ['User-agent: *', 'Allow: /', ...(siteUrl === null ? [] : ['', `Sitemap: ${siteUrl}${sitemapPath}`]), ''].join(
    '\n',
  );
}

export function webManifest(): string {
  return `${JSON.stringify(
    {
      name: site.title,
      short_name: site.shortName,
      description: site.description,
      start_url: '/',
      display: 'browser',
      background_color: '#ffffff',
      theme_color: themeColor,
      icons: generatedImages.manifestIcons.map((icon) => ({
        src: icon.path,
        sizes: `${icon.width}x${icon.height}`,
        type: 'image/png',
      })),
    },
    null,
    2,
  )}\n`;
}
