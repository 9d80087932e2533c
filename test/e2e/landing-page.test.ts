import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { aboutHeading } from '../../core/content/author';
import { book } from '../../core/content/book';
import { downloadHeading } from '../../core/content/cheat-sheet';
import { outlineHeading, outlinePhases } from '../../core/content/outline';
import { resourceCards, resourcesHeading } from '../../core/content/resources';
import { testimonialHeading } from '../../core/content/testimonial';
import { openLandingPage, openPage, problemsIn } from './support/browser';
import { useProductInBrowser } from './support/local-product';

/** The podcast card's title, as the author wrote it (a pattern of its own: no character is special). */
const podcastTitle = resourceCards[2]!.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

jest.setTimeout(60_000);

const running = useProductInBrowser();

describe('the landing page in the browser', () => {
  test('hydrates the form with no console error or warning', async () => {
    const { page, console: messages, close } = await openPage(running.browser);
    await openLandingPage(page, running.product.site);
    await page.waitForLoadState('networkidle');
    expect(problemsIn(messages)).toEqual([]);
    await close();
  });

  test('shows every section with JavaScript disabled, from the pre-rendered HTML', async () => {
    const { page, close } = await openPage(running.browser, { javaScriptEnabled: false });
    await page.goto(running.product.site);
    const text = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
    const expected = [
      book.subtitle,
      'Buy on Amazon',
      outlineHeading,
      ...outlinePhases.flatMap((phase) => [phase.title, ...phase.items.map((item) => item.content)]),
      aboutHeading,
      testimonialHeading,
      'Business Owner',
      resourcesHeading,
      'Coming Soon',
      downloadHeading,
      'I confirm that I have purchased the book',
    ];
    for (const phrase of expected) expect(text).toContain(phrase);
    await close();
  });

  test.each([
    ['Buy on Amazon', /^Buy on Amazon$/],
    ['the podcast logo', new RegExp(`^${podcastTitle}$`)],
    ['Facebook', /on Facebook$/],
    ['Instagram', /on Instagram$/],
    ['LinkedIn', /on LinkedIn$/],
  ])('%s opens in a new tab with noopener', async (_, name) => {
    const { page, close } = await openPage(running.browser);
    await page.goto(running.product.site);
    const link = page.getByRole('link', { name });
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toContain('noopener');
    // Follow it for real: a new tab opens (its page cannot load here: no network).
    const [popup] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    await close();
  });

  test('writes screenshots at phone and desktop widths under the build output', async () => {
    const folder = path.join(process.cwd(), 'dist/screenshots');
    await mkdir(folder, { recursive: true });
    for (const [name, viewport] of [
      ['landing-phone', { width: 390, height: 844 }],
      ['landing-desktop', { width: 1280, height: 800 }],
    ] as const) {
      const { page, close } = await openPage(running.browser, { viewport, deviceScaleFactor: 1 });
      await page.goto(running.product.site);
      await page.waitForLoadState('networkidle');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(viewport.width); // nothing overflows sideways
      await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
      await close();
    }
  });
});
