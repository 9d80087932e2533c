/**
 * @jest-environment jsdom
 */
/**
 * Reads the build output (`npm test` builds first): the pages must carry their text before any
 * script runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { formResults } from '../../../core/content/form-results';
import { outlinePhases } from '../../../core/content/outline';
import { pngSize } from '../../support/png-size';
import { book } from '../../../core/content/book';
import { site } from '../../../core/content/site';
import { sitePages } from '../../../core/site-pages';
import { formPrivacyNotice, privacy } from '../../../core/content/privacy';

const dist = path.join(process.cwd(), 'frontend/dist');

function builtPage(file: string): Document {
  const html = path.join(dist, file);
  if (!existsSync(html)) throw new Error(`${html} is missing: run npm run build first`);
  return new DOMParser().parseFromString(readFileSync(html, 'utf8'), 'text/html');
}

describe('the pre-rendered privacy page', () => {
  test('holds its text, in the layout, with its own title', () => {
    const page = builtPage('privacy.html');
    expect(page.querySelector('h1')?.textContent).toBe(privacy.heading);
    expect(page.body.textContent).toContain(privacy.sections[0]!.heading);
    expect(page.querySelector('header')).not.toBeNull();
    expect(page.querySelector('footer')).not.toBeNull();
    expect(page.title).toBe(`${privacy.heading} · ${site.title}`);
  });

  test('is linked from the landing page under the form', () => {
    const link = builtPage('index.html').querySelector('#download-section a[href="/privacy"]');
    expect(link?.textContent).toBe(formPrivacyNotice.linkText);
  });
});

describe('the pre-rendered landing page', () => {
  test('holds the nine outline items in its HTML', () => {
    const text = builtPage('index.html').body.textContent ?? '';
    const items = outlinePhases.flatMap((phase) => phase.items.map((item) => item.content));
    expect(items).toHaveLength(9);
    for (const item of items) expect(text).toContain(item);
  });

  test('holds the download section with its heading and form', () => {
    const section = builtPage('index.html').getElementById('download-section');
    expect(section?.textContent).toContain('Get Your Free Business Operations Cheat Sheet');
    expect(section?.querySelector('input[type="email"]')).not.toBeNull();
  });

  test('holds the form inside the island, posting to the form route when no script handles it', () => {
    const island = builtPage('index.html').getElementById('cheat-sheet-form-island');
    const form = island?.querySelector('form');
    expect(form?.getAttribute('method')).toBe('post');
    expect(form?.getAttribute('action')).toBe('/api/cheat-sheet-form');
    expect(form?.querySelector('input[name="website"]')?.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(island?.querySelector('dialog')?.textContent).toContain('Error Details');
  });

  test('loads one module script and preloads no module', () => {
    const page = builtPage('index.html');
    // JSON-LD is data, not a script the browser runs or loads.
    expect(page.querySelectorAll('script:not([type="application/ld+json"])')).toHaveLength(1);
    expect(page.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
  });

  test('has the page title, description and sharing tags, and loads its script as a module', () => {
    const page = builtPage('index.html');
    expect(page.title).toBe(`${book.title}: ${book.subtitle}`);
    expect(page.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe(page.title);
    expect(page.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(site.description);
    expect(page.querySelector('script[type="module"][src^="/assets/"]')).not.toBeNull();
  });
});

describe('what crawlers and link previews read in the build', () => {
  test('the landing page carries one JSON-LD Book, as data the CSP lets through (no inline script)', () => {
    const page = builtPage('index.html');
    const data = [...page.querySelectorAll('script[type="application/ld+json"]')].map(
      (element) => JSON.parse(element.textContent ?? '') as { '@type': string },
    );
    expect(data.map((item) => item['@type'])).toEqual(['Book']);
    // script-src 'self' runs only scripts with a src; JSON-LD is not run at all.
    for (const script of page.querySelectorAll('script')) {
      expect(script.hasAttribute('src') || script.getAttribute('type') === 'application/ld+json').toBe(true);
    }
  });

  test('the preview image it names is a 1200×630 PNG in the build', () => {
    const imageUrl = builtPage('index.html').querySelector('meta[property="og:image"]')?.getAttribute('content') ?? '';
    expect(builtPage('index.html').querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe(
      'summary_large_image',
    );
    expect(pngSize(readFileSync(path.join(dist, new URL(imageUrl, 'https://site.invalid').pathname)))).toEqual({
      width: 1200,
      height: 630,
    });
  });

  test('robots.txt, the touch icon and the web manifest are in the build', () => {
    expect(readFileSync(path.join(dist, 'robots.txt'), 'utf8')).toMatch(/^User-agent: \*\nAllow: \/\n/);
    expect(pngSize(readFileSync(path.join(dist, 'apple-touch-icon.png')))).toEqual({ width: 180, height: 180 });
    const manifest = JSON.parse(readFileSync(path.join(dist, 'site.webmanifest'), 'utf8')) as { name: string };
    expect(manifest.name).toBe(builtPage('index.html').title);
  });
});

describe('the pre-rendered form result pages', () => {
  test.each(sitePages.filter((page) => page.path.startsWith('/cheat-sheet/')).map((page) => page.file))(
    '%s says what happened and leads on, and is not for search engines',
    (file) => {
      const page = builtPage(file);
      const result = Object.values(formResults).find((candidate) =>
        page.body.textContent?.includes(candidate.message.title),
      );
      expect(result).toBeDefined();
      expect(page.body.textContent).toContain(result!.message.description);
      expect(page.querySelector(`main a[href="${result!.link.href}"]`)?.textContent).toBe(result!.link.label);
      expect(page.title).toBe(`${result!.message.title} · ${builtPage('index.html').title}`);
      expect(page.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
      expect(page.querySelector('form')).toBeNull();
    },
  );
});

describe('the pre-rendered not-found page', () => {
  test('holds 404, the message and the way home', () => {
    const page = builtPage('404.html');
    expect(page.body.textContent).toContain('404');
    expect(page.body.textContent).toContain('Oops! Page not found');
    expect(page.querySelector('main a[href="/"]')?.textContent).toBe('Return to Home');
  });

  test('asks search engines not to index it', () => {
    expect(builtPage('404.html').querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
  });

  test('has no island, so it loads no form code', () => {
    const page = builtPage('404.html');
    expect(page.getElementById('cheat-sheet-form-island')).toBeNull();
    expect(page.querySelector('[data-not-found]')).not.toBeNull();
  });
});
