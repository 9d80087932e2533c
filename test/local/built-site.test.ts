/**
 * Smoke check of the local stack serving the real build (frontend/dist, made by `npm run build`,
 * which `npm test` runs first). Everything else in test/local uses a fixture site.
 */

import { access } from 'node:fs/promises';
import path from 'node:path';
import { downloadHeading } from '../../core/content/cheat-sheet';
import { outlineHeading } from '../../core/content/outline';
import { formResults } from '../../core/content/form-results';
import { notFound } from '../../core/content/site';
import { formResultPaths, type FormOutcome } from '../../core/site-pages';
import { startLocalStack, type LocalStack } from '../../local/local-stack';
import { hashedAssetsCacheControl } from '../../infra/cache-policy';

const htmlText = (html: string) => html.replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, '&');

let stack: LocalStack;

beforeAll(async () => {
  await access(path.join('frontend', 'dist', 'index.html')).catch(() => {
    throw new Error('frontend/dist is not built: run npm run build first (npm test does).');
  });
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true'; // the functions' metrics are tested in test/lambdas
  stack = await startLocalStack({ cheatSheetPdf: null, onWarning: () => {} });
});
afterAll(() => stack?.stop());

describe('the local stack serving the real build', () => {
  test('/ is the pre-rendered landing page: its text is in the HTML', async () => {
    const html = htmlText(await (await fetch(stack.urls.site)).text());

    expect(html).toContain(outlineHeading);
    expect(html).toContain(downloadHeading);
    expect(html).toContain('id="download-section"');
  });

  test('an unknown path is the pre-rendered not-found page with status 404', async () => {
    const response = await fetch(new URL('/no-such-page', stack.urls.site));

    expect(response.status).toBe(404);
    expect(await response.text()).toContain(notFound.message);
  });

  test.each(Object.keys(formResultPaths) as FormOutcome[])(
    'the form result page of %s is served with 200, its words in the HTML',
    async (outcome) => {
      const response = await fetch(new URL(formResultPaths[outcome], stack.urls.site));

      expect(response.status).toBe(200);
      const html = htmlText(await response.text());
      expect(html).toContain(formResults[outcome].message.title);
      expect(html).toContain(formResults[outcome].message.description);
      expect(html).toContain('<meta name="robots" content="noindex" />');
    },
  );

  test('/ loads one script up front and preloads no module: the island comes later', async () => {
    const html = await (await fetch(stack.urls.site)).text();

    // JSON-LD (type="application/ld+json") is data, not a script the browser runs or loads.
    expect(html.match(/<script\b(?![^>]*application\/ld\+json)/g)).toHaveLength(1);
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('id="cheat-sheet-form-island"');
  });

  test("the page's hashed script, stylesheet and font are served, immutable, with their content types", async () => {
    const html = await (await fetch(stack.urls.site)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map(([, asset]) => asset!);
    expect(assets.length).toBeGreaterThanOrEqual(2);

    for (const asset of assets) {
      const response = await fetch(new URL(asset, stack.urls.site));
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe(hashedAssetsCacheControl);
      expect(response.headers.get('content-type')).toMatch(
        asset.endsWith('.woff2') ? /^font\/woff2$/ : /^text\/(javascript|css); charset=utf-8$/,
      );
    }
    expect(assets.filter((asset) => asset.endsWith('.woff2'))).toHaveLength(1);
  });
});
