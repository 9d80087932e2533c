/**
 * Visual regression: every page at 1280 and 390 px, the cheat sheet's page and the e-mail,
 * compared pixel by pixel (pixelmatch) with the committed baselines in test/e2e/baselines/.
 * Deterministic by construction: the font is the site's own, the page's script is off (the
 * pre-rendered HTML is what is drawn), reduced motion turns the page's transitions off (its CSS
 * has no animation), and each shot waits for the fonts. `npm run test:visual:update` rewrites the baselines (docs/testing.md says when).
 *
 * The copy is fixed: every text the author wrote in content/ is swapped for the same field's text in
 * a frozen copy (test/support/copy-swap.ts) in the page, the e-mail and the PDF before they are
 * drawn, each list the author lengthened or shortened is drawn with the frozen entries, and each of
 * the author's images is drawn from the frozen copy's file at its size, so an edit of content/ changes no baseline (test/repository/copy-edit.test.ts, and
 * `npm run test:copy-edit`, which runs the suites on a copy with every text changed).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { buildCheatSheetEmail } from '../../core/documents/cheat-sheet-email';
import { buildCheatSheetPdf, cheatSheetContent } from '../../core/documents/cheat-sheet-pdf';
import { readDocumentFonts } from '../../frontend/build/document-fonts';
import { swapCopy, visualFreeze } from '../support/copy-swap';
import { freezePageStructure, swapPageText } from './support/swap-page-text';
import { sitePages } from '../../core/site-pages';
import { renderFirstPage } from '../support/pdf-render';
import { openPage } from './support/browser';
import { useProductInBrowser } from './support/local-product';

jest.setTimeout(120_000);

const running = useProductInBrowser();
const baselines = path.join(process.cwd(), 'test/e2e/baselines');
const updating = process.env.UPDATE_VISUAL_BASELINES === '1';
/** From the author's current words, list lengths and images to the frozen copy's. */
const freeze = visualFreeze();
const swaps = freeze.texts;

/** pixelmatch's per-pixel colour threshold, and the share of pixels that may differ (anti-aliasing). */
const pixelThreshold = 0.1;
const allowedDifference = 0.001;

/** Compares a shot with its baseline (or writes it, when updating). */
async function expectMatchesBaseline(name: string, png: Buffer): Promise<void> {
  const file = path.join(baselines, `${name}.png`);
  if (updating || !existsSync(file)) {
    if (!updating) throw new Error(`No baseline ${path.relative(process.cwd(), file)}: run npm run test:visual:update`);
    await mkdir(baselines, { recursive: true });
    await writeFile(file, png);
    return;
  }
  const baseline = await readFile(file);
  // Chromium encodes the same pixels into the same bytes: an identical file needs no decoding
  // (pngjs decodes in JavaScript, about 0.1 s of CPU a shot and over a second for the landing page's).
  if (png.equals(baseline)) return;
  const expected = PNG.sync.read(baseline);
  const actual = PNG.sync.read(png);
  expect({ width: actual.width, height: actual.height }).toEqual({ width: expected.width, height: expected.height });
  const differing = pixelmatch(expected.data, actual.data, null, actual.width, actual.height, {
    threshold: pixelThreshold,
  });
  expect(differing / (actual.width * actual.height)).toBeLessThanOrEqual(allowedDifference);
}

const pages = [...sitePages.map((page) => page.path), '/no-such-page'];
const shotName = (pagePath: string) => (pagePath === '/' ? 'landing' : pagePath.slice(1).replace(/\//g, '-'));

describe.each([
  ['desktop', 1280, 800],
  ['phone', 390, 844],
] as const)('every page at %s width (%d px)', (label, width, height) => {
  test.each(pages)('%s looks as its baseline', async (pagePath) => {
    const { page, close } = await openPage(running.browser, {
      viewport: { width, height },
      javaScriptEnabled: false,
      reducedMotion: 'reduce',
    });
    // The author's images, whatever their files: the frozen copy's pixels.
    for (const image of freeze.images) {
      await page.route(new URL(image.src, running.product.site).href, (route) =>
        route.fulfill({ path: image.frozenFile, contentType: 'image/svg+xml' }),
      );
    }
    await page.goto(new URL(pagePath, running.product.site).href);
    await page.evaluate(freezePageStructure, { lists: freeze.lists, images: freeze.images });
    await page.evaluate(swapPageText, swaps);
    // The frozen images were loaded before the swap; wait until every image is drawn.
    await page.evaluate(() => Promise.all([...document.images].map((image) => image.decode().catch(() => undefined))));
    await page.evaluate(() => document.fonts.ready);
    await expectMatchesBaseline(`${shotName(pagePath)}-${label}`, await page.screenshot({ fullPage: true }));
    await close();
  });
});

test('the cheat sheet looks as its baseline', async () => {
  // Built here as `npm run build` builds it (no SITE_URL), from the frozen copy's words.
  const pdf = await buildCheatSheetPdf({
    fonts: await readDocumentFonts(process.cwd()),
    content: swapCopy(cheatSheetContent, swaps, freeze.lists),
  });
  const { width, height, pixels } = await renderFirstPage(pdf, 60);
  const png = new PNG({ width, height });
  for (let index = 0; index < width * height; index += 1) {
    png.data.set([pixels[index]!, pixels[index]!, pixels[index]!, 255], index * 4);
  }
  await expectMatchesBaseline('cheat-sheet', PNG.sync.write(png));
});

test('the e-mail looks as its baseline in a 600 px client', async () => {
  const { page, close } = await openPage(running.browser, {
    viewport: { width: 600, height: 800 },
    javaScriptEnabled: false,
  });
  await page.setContent(buildCheatSheetEmail({ name: 'Ada' }).html);
  await page.evaluate(swapPageText, swaps);
  await expectMatchesBaseline('email', await page.screenshot({ fullPage: true }));
  await close();
});
