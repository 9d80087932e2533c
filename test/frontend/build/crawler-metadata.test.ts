/**
 * @jest-environment jsdom
 */
/**
 * What crawlers and link previews read, from the content and the site's address: parsed back
 * (JSON, the DOM, XML) and checked field by field.
 */
import { author } from '../../../core/content/author';
import { book } from '../../../core/content/book';
import { site } from '../../../core/content/site';
import { sitePages } from '../../../core/site-pages';
import {
  bookStructuredData,
  headTags,
  jsonLdElement,
  parseSiteUrl,
  robotsTxt,
  SiteUrlError,
  sitemapXml,
  webManifest,
} from '../../../frontend/build/crawler-metadata';

const siteUrl = 'https://books.example.org';
const landing = sitePages.find((page) => page.path === '/')!;
const privacyPage = sitePages.find((page) => page.path === '/privacy')!;

/** The tags as a document head, the way a crawler parses them. */
function head(tags: string): Document {
  return new DOMParser().parseFromString(`<!doctype html><html><head>${tags}</head><body></body></html>`, 'text/html');
}
const meta = (document: Document, property: string) =>
  document.querySelector(`meta[property="${property}"], meta[name="${property}"]`)?.getAttribute('content');

describe('SITE_URL', () => {
  test('unset or blank means no known address', () => {
    expect(parseSiteUrl(undefined)).toBeNull();
    expect(parseSiteUrl('  ')).toBeNull();
  });

  test('is used without its trailing slash', () => {
    expect(parseSiteUrl('https://www.example.com/')).toBe('https://www.example.com');
    expect(parseSiteUrl(' https://d111111abcdef8.cloudfront.net ')).toBe('https://d111111abcdef8.cloudfront.net');
    expect(parseSiteUrl('http://localhost:3000')).toBe('http://localhost:3000');
  });

  test.each([
    'www.example.com',
    'ftp://example.com',
    'https://example.com/books',
    'https://example.com/?utm=1',
    'https://example.com/#top',
    'https://user:secret@example.com',
  ])('refuses %s with a message that shows what to pass', (value) => {
    expect(() => parseSiteUrl(value)).toThrow(SiteUrlError);
    expect(() => parseSiteUrl(value)).toThrow(/SITE_URL=https:\/\/www\.example\.com/);
  });
});

describe('the JSON-LD', () => {
  test('describes the book and its author as schema.org Book and Person', () => {
    const data = JSON.parse(JSON.stringify(bookStructuredData(siteUrl))) as Record<string, unknown>;
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Book',
      name: book.title,
      alternativeName: book.subtitle,
      description: site.description,
      image: `${siteUrl}${book.cover.src}`,
      url: `${siteUrl}/`,
      author: { '@type': 'Person', name: author.name, sameAs: author.social.map((link) => link.url) },
    });
  });

  test("names the author's three social profiles as sameAs, in the content's order", () => {
    const { author: person } = bookStructuredData(siteUrl) as { author: { sameAs: string[] } };
    // The addresses are the author's (content/author.yaml), whatever they are.
    expect(person.sameAs).toHaveLength(3);
    expect(person.sameAs).toEqual(author.social.map((link) => link.url));
  });

  test('carries the ISBN once the content has one, and none before', () => {
    expect(bookStructuredData(siteUrl, '9781234567897')).toMatchObject({ isbn: '9781234567897' });
    expect(bookStructuredData(siteUrl, undefined)).not.toHaveProperty('isbn');
  });

  test('without a known address has a relative image and no url', () => {
    const data = bookStructuredData(null) as Record<string, unknown>;
    expect(data.image).toBe(book.cover.src);
    expect(data).not.toHaveProperty('url');
  });

  test('is a data element no text can break out of', () => {
    const element = jsonLdElement({ name: '</script><script>alert(1)</script>' });
    const scripts = head(element).querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0].getAttribute('type')).toBe('application/ld+json');
    expect(JSON.parse(scripts[0].textContent ?? '')).toEqual({ name: '</script><script>alert(1)</script>' });
  });
});

describe('the head tags', () => {
  test('give the link preview its large image, its size and its description', () => {
    const document = head(headTags(null, landing));
    expect(meta(document, 'og:image')).toBe('/images/og-image.png');
    expect(meta(document, 'og:image:width')).toBe('1200');
    expect(meta(document, 'og:image:height')).toBe('630');
    expect(meta(document, 'og:image:alt')).toBe(book.cover.alt);
    expect(meta(document, 'twitter:card')).toBe('summary_large_image');
  });

  test('link the touch icon and the manifest', () => {
    const document = head(headTags(null, privacyPage));
    expect(document.querySelector('link[rel="apple-touch-icon"]')?.getAttribute('href')).toBe('/apple-touch-icon.png');
    expect(document.querySelector('link[rel="manifest"]')?.getAttribute('href')).toBe('/site.webmanifest');
  });

  test("with the site's address, give each page its canonical address, og:url and an absolute image", () => {
    for (const page of [landing, privacyPage]) {
      const document = head(headTags(siteUrl, page));
      expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${siteUrl}${page.path}`);
      expect(meta(document, 'og:url')).toBe(`${siteUrl}${page.path}`);
      expect(meta(document, 'og:image')).toBe(`${siteUrl}/images/og-image.png`);
    }
  });

  test('without it, name no canonical address and no og:url', () => {
    const document = head(headTags(null, landing));
    expect(document.querySelector('link[rel="canonical"]')).toBeNull();
    expect(meta(document, 'og:url')).toBeUndefined();
  });

  test('give the not-found page no canonical address, even with the site address', () => {
    const document = head(headTags(siteUrl, null));
    expect(document.querySelector('link[rel="canonical"]')).toBeNull();
    expect(meta(document, 'og:url')).toBeUndefined();
  });

  test('carry the JSON-LD on the landing page only', () => {
    const ldOf = (tags: string) => head(tags).querySelectorAll('script[type="application/ld+json"]');
    expect(ldOf(headTags(siteUrl, landing))).toHaveLength(1);
    expect(ldOf(headTags(siteUrl, privacyPage))).toHaveLength(0);
    expect(ldOf(headTags(siteUrl, null))).toHaveLength(0);
  });
});

describe('sitemap.xml', () => {
  test('lists each given page at its absolute address', () => {
    const xml = new DOMParser().parseFromString(sitemapXml(siteUrl, [landing, privacyPage]), 'application/xml');
    expect(xml.documentElement.namespaceURI).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locations = [...xml.getElementsByTagName('loc')].map((loc) => loc.textContent);
    expect(locations).toEqual([`${siteUrl}/`, `${siteUrl}/privacy`]);
  });
});

describe('robots.txt', () => {
  test('lets every crawler in and names the sitemap when there is one', () => {
    expect(robotsTxt(siteUrl).split('\n')).toEqual([
      'User-agent: *',
      'Allow: /',
      '',
      `Sitemap: ${siteUrl}/sitemap.xml`,
      '',
    ]);
  });

  test('names no sitemap without the address', () => {
    expect(robotsTxt(null)).toBe('User-agent: *\nAllow: /\n');
  });
});

describe('the web manifest', () => {
  test("has the site's name, a short name and its PNG icons", () => {
    const manifest = JSON.parse(webManifest()) as {
      name: string;
      short_name: string;
      start_url: string;
      icons: Array<{ src: string; sizes: string; type: string }>;
    };
    expect(manifest.name).toBe(site.title);
    expect(manifest.short_name).toBe(site.shortName);
    expect(manifest.start_url).toBe('/');
    expect(manifest.icons).toEqual([
      { src: '/images/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/images/icon-512.png', sizes: '512x512', type: 'image/png' },
    ]);
  });
});
