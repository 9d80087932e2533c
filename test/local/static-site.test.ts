import path from 'node:path';
import { hashedAssetsCacheControl, pagesCacheControl } from '../../infra/cache-policy';
import { contentTypeFor, notFoundResponse, resolveSitePath, staticSiteResponse } from '../../local/static-site';
import { createSiteFixture, type SiteFixture } from './support/site-fixture';

let site: SiteFixture;
beforeAll(async () => {
  site = await createSiteFixture();
});
afterAll(() => site?.remove());

describe('staticSiteResponse', () => {
  test('serves the pre-rendered index.html for /, revalidated on every visit', async () => {
    const response = await staticSiteResponse(site.siteDir, '/');

    expect(response.statusCode).toBe(200);
    expect(response.body.toString()).toContain(site.landingText);
    expect(response.headers).toEqual({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': pagesCacheControl,
    });
  });

  test('serves the same page for /index.html and ignores query strings', async () => {
    for (const url of ['/index.html', '/?utm_source=mail']) {
      expect((await staticSiteResponse(site.siteDir, url)).body.toString()).toContain(site.landingText);
    }
  });

  test('serves /privacy from privacy.html with 200, as CloudFront rewrites it', async () => {
    for (const url of ['/privacy', '/privacy?ref=form', '/privacy.html']) {
      const response = await staticSiteResponse(site.siteDir, url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['Content-Type']).toBe('text/html; charset=utf-8');
      expect(response.body.toString()).toContain(site.privacyText);
    }
  });

  test('a path near a page path is still not found', async () => {
    for (const url of ['/privacy/', '/Privacy', '/privacy/more']) {
      const response = await staticSiteResponse(site.siteDir, url);
      expect(response.statusCode).toBe(404);
      expect(response.body.toString()).toContain(site.notFoundText);
    }
  });
  test('serves a page of core/site-pages.ts at its path, from its file, as the CloudFront Function maps it', async () => {
    const response = await staticSiteResponse(site.siteDir, '/cheat-sheet/sent');

    expect(response.statusCode).toBe(200);
    expect(response.body.toString()).toContain(site.resultText);
    expect(response.headers).toEqual({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': pagesCacheControl,
    });
  });

  test.each(['/cheat-sheet', '/cheat-sheet/sent/', '/cheat-sheet/unknown'])(
    'answers %s, which is no page, with the not-found page',
    async (url) => {
      const response = await staticSiteResponse(site.siteDir, url);

      expect(response.statusCode).toBe(404);
      expect(response.body.toString()).toContain(site.notFoundText);
    },
  );

  test('serves hashed assets as immutable for a year', async () => {
    const response = await staticSiteResponse(site.siteDir, site.assetPath);

    expect(response.statusCode).toBe(200);
    expect(response.body.toString()).toBe(site.assetBody);
    expect(response.headers['Cache-Control']).toBe(hashedAssetsCacheControl);
    expect(response.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
  });

  test('serves other files revalidated on every visit, as the cloud does, with their own content type', async () => {
    const response = await staticSiteResponse(site.siteDir, '/images/book-cover.svg');

    expect(response.statusCode).toBe(200);
    expect(response.headers).toEqual({ 'Content-Type': 'image/svg+xml', 'Cache-Control': pagesCacheControl });
  });

  test.each(['/missing', '/assets/missing.js', '/images', '/images/', '/index.html/extra'])(
    'answers %s with the not-found page and status 404',
    async (url) => {
      const response = await staticSiteResponse(site.siteDir, url);

      expect(response.statusCode).toBe(404);
      expect(response.body.toString()).toContain(site.notFoundText);
      expect(response.headers['Content-Type']).toBe('text/html; charset=utf-8');
    },
  );

  test.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/.env',
    '/%2eenv',
    '/%00',
    '/%E0%A4%A',
  ])('never serves %s from outside the site or hidden: 404', async (url) => {
    const response = await staticSiteResponse(site.siteDir, url);

    expect(response.statusCode).toBe(404);
    expect(response.body.toString()).not.toMatch(/outside the site|SECRET/);
  });

  test('answers with a plain 404 when no site is served', async () => {
    const response = await notFoundResponse(null);

    expect(response.statusCode).toBe(404);
    expect(response.body.toString()).toBe('404 Not Found\n');
  });

  test('falls back to a plain 404 when the site has no 404.html', async () => {
    const response = await staticSiteResponse(path.join(site.siteDir, 'images'), '/missing');

    expect(response.statusCode).toBe(404);
    expect(response.headers['Content-Type']).toBe('text/plain; charset=utf-8');
  });
});

describe('resolveSitePath', () => {
  test('maps / to index.html and paths to files inside the site', () => {
    expect(resolveSitePath('/site', '/')).toBe(path.resolve('/site/index.html'));
    expect(resolveSitePath('/site', '/assets/a%20b.js')).toBe(path.resolve('/site/assets/a b.js'));
  });

  test.each(['/..', '/a/../../etc/passwd', '/a\\..\\b', '/%5c..%5cb'])('refuses %s', (urlPath) => {
    expect(resolveSitePath('/site', urlPath)).toBeNull();
  });
});

describe('contentTypeFor', () => {
  test.each([
    ['a.html', 'text/html; charset=utf-8'],
    ['a.css', 'text/css; charset=utf-8'],
    ['a.woff2', 'font/woff2'],
    ['a.PNG', 'image/png'],
    ['a.unknown', 'application/octet-stream'],
  ])('%s is %s', (file, type) => {
    expect(contentTypeFor(file)).toBe(type);
  });
});
