/**
 * @jest-environment jsdom
 */
/**
 * The pre-render as the build runs it (the real server render, the real template and public
 * folder), into a folder of its own: once with a site address, as the deploy steps build, and
 * once without, as `npm start` builds. The files are read back as a crawler would.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { author } from '../../../core/content/author';
import { book } from '../../../core/content/book';
import { notFoundFile } from '../../../core/site-pages';
import { prerenderSite } from '../../../frontend/build/prerender-site';
import { render } from '../../../frontend/src/entry-server';
import { pngSize } from '../../support/png-size';

const repository = process.cwd();
const siteUrl = 'https://www.first100days.example';

async function prerenderInto(address: string | null): Promise<string> {
  const siteDir = await mkdtemp(path.join(os.tmpdir(), 'prerender-'));
  await copyFile(path.join(repository, 'frontend/index.html'), path.join(siteDir, 'index.html'));
  await prerenderSite({ siteDir, publicDir: path.join(repository, 'frontend/public'), render, siteUrl: address });
  return siteDir;
}

const parse = async (file: string) =>
  new DOMParser().parseFromString(await readFile(file, 'utf8'), 'text/html') as Document;
const attribute = (document: Document, selector: string, name: string) =>
  document.querySelector(selector)?.getAttribute(name);

describe('built with SITE_URL', () => {
  let siteDir: string;
  beforeAll(async () => {
    siteDir = await prerenderInto(siteUrl);
  }, 30_000);
  afterAll(() => rm(siteDir, { recursive: true, force: true }));

  test.each([
    ['index.html', '/'],
    ['privacy.html', '/privacy'],
  ])('%s names its canonical address and og:url, and an absolute og:image', async (file, pagePath) => {
    const page = await parse(path.join(siteDir, file));
    expect(attribute(page, 'link[rel="canonical"]', 'href')).toBe(`${siteUrl}${pagePath}`);
    expect(attribute(page, 'meta[property="og:url"]', 'content')).toBe(`${siteUrl}${pagePath}`);
    expect(attribute(page, 'meta[property="og:image"]', 'content')).toBe(`${siteUrl}/images/og-image.png`);
  });

  test('the landing page carries the Book and its author as JSON-LD', async () => {
    const page = await parse(path.join(siteDir, 'index.html'));
    const blocks = [...page.querySelectorAll('script[type="application/ld+json"]')];
    expect(blocks).toHaveLength(1);
    const data = JSON.parse(blocks[0].textContent ?? '') as Record<string, unknown>;
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Book',
      name: book.title,
      alternativeName: book.subtitle,
      image: `${siteUrl}${book.cover.src}`,
      url: `${siteUrl}/`,
      author: { '@type': 'Person', name: author.name },
    });
    expect((data.author as { sameAs: string[] }).sameAs).toHaveLength(3);
  });

  test('sitemap.xml lists / and /privacy, and not the not-found page', async () => {
    const xml = new DOMParser().parseFromString(
      await readFile(path.join(siteDir, 'sitemap.xml'), 'utf8'),
      'application/xml',
    );
    const locations = [...xml.getElementsByTagName('loc')].map((loc) => loc.textContent);
    expect(locations).toEqual([`${siteUrl}/`, `${siteUrl}/privacy`]);
  });

  test('robots.txt points to the sitemap', async () => {
    expect(await readFile(path.join(siteDir, 'robots.txt'), 'utf8')).toContain(`Sitemap: ${siteUrl}/sitemap.xml`);
  });

  test('the not-found page is not indexed and names no canonical address', async () => {
    const page = await parse(path.join(siteDir, notFoundFile));
    expect(attribute(page, 'meta[name="robots"]', 'content')).toBe('noindex');
    expect(page.querySelector('link[rel="canonical"]')).toBeNull();
  });
});

describe('built without SITE_URL', () => {
  let siteDir: string;
  beforeAll(async () => {
    siteDir = await prerenderInto(null);
  }, 30_000);
  afterAll(() => rm(siteDir, { recursive: true, force: true }));

  test('the pages name no canonical address and no og:url', async () => {
    for (const file of ['index.html', 'privacy.html']) {
      const page = await parse(path.join(siteDir, file));
      expect(page.querySelector('link[rel="canonical"]')).toBeNull();
      expect(page.querySelector('meta[property="og:url"]')).toBeNull();
    }
  });

  test('there is no sitemap, and robots.txt names none', async () => {
    expect(existsSync(path.join(siteDir, 'sitemap.xml'))).toBe(false);
    expect(await readFile(path.join(siteDir, 'robots.txt'), 'utf8')).not.toContain('Sitemap');
  });

  test('the Open Graph image is a 1200×630 PNG', async () => {
    expect(pngSize(await readFile(path.join(siteDir, 'images/og-image.png')))).toEqual({ width: 1200, height: 630 });
  });

  test('the touch icon is 180×180 and the manifest icons have the sizes it states', async () => {
    expect(pngSize(await readFile(path.join(siteDir, 'apple-touch-icon.png')))).toEqual({ width: 180, height: 180 });
    const manifest = JSON.parse(await readFile(path.join(siteDir, 'site.webmanifest'), 'utf8')) as {
      icons: Array<{ src: string; sizes: string }>;
    };
    for (const icon of manifest.icons) {
      const { width, height } = pngSize(await readFile(path.join(siteDir, icon.src)));
      expect(`${width}x${height}`).toBe(icon.sizes);
    }
  });
});
