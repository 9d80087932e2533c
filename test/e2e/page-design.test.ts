/**
 * The page's look as a visitor meets it, without the page's script (the pre-rendered HTML): its
 * font from the site itself, one header and footer on every page, the brand on one line and
 * the hero's buttons on a phone, the short pages within one window, and no link left unstyled.
 */
import { sitePages } from '../../core/site-pages';
import { openPage } from './support/browser';
import { useProductInBrowser } from './support/local-product';

jest.setTimeout(60_000);

const running = useProductInBrowser();

const everyPage = [...sitePages.map((page) => page.path), '/no-such-page'];
const resultPages = sitePages.map((page) => page.path).filter((path) => path.startsWith('/cheat-sheet/'));

const phone = { viewport: { width: 390, height: 844 }, javaScriptEnabled: false };
const desktop = { viewport: { width: 1280, height: 800 }, javaScriptEnabled: false };

describe("the page's type", () => {
  test("loads its font from the site's own origin, and sets the text in it", async () => {
    const { page, close } = await openPage(running.browser, desktop);
    const fonts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'font') fonts.push(request.url());
    });
    await page.goto(running.product.site);
    await page.evaluate(() => document.fonts.ready);

    expect(fonts.length).toBeGreaterThanOrEqual(1);
    for (const font of fonts) expect(new URL(font).origin).toBe(new URL(running.product.site).origin);
    expect(await page.evaluate(() => document.fonts.check('16px "Source Sans 3"'))).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Source Sans 3"/);
    expect(await page.locator('link[rel="preload"][as="font"]').count()).toBe(1);
    await close();
  });
});

describe('one chrome on every page', () => {
  test.each(everyPage)('%s has the header and the footer', async (path) => {
    const { page, close } = await openPage(running.browser, desktop);
    await page.goto(new URL(path, running.product.site).href);

    await expect(page.getByRole('banner').count()).resolves.toBe(1);
    await expect(page.getByRole('contentinfo').count()).resolves.toBe(1);
    await expect(page.getByRole('banner').getByRole('link').first().getAttribute('href')).resolves.toBe('/');
    await close();
  });

  test.each(everyPage)('%s leaves no link in the browser’s default blue', async (path) => {
    const { page, close } = await openPage(running.browser, desktop);
    await page.goto(new URL(path, running.product.site).href);
    const colours = await page.locator('a').evaluateAll((links) => links.map((link) => getComputedStyle(link).color));

    expect(colours.length).toBeGreaterThan(0);
    expect(colours.filter((colour) => colour === 'rgb(0, 0, 238)' || colour === 'rgb(85, 26, 139)')).toEqual([]);
    await close();
  });

  test.each(resultPages)('%s fits a 1280×800 window', async (path) => {
    const { page, close } = await openPage(running.browser, desktop);
    await page.goto(new URL(path, running.product.site).href);
    await page.evaluate(() => document.fonts.ready);

    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(800);
    await close();
  });
});

describe('on a phone (390 px)', () => {
  test.each(everyPage)("%s shows the brand on one line, beside the header's button", async (path) => {
    const { page, close } = await openPage(running.browser, phone);
    await page.goto(new URL(path, running.product.site).href);
    await page.evaluate(() => document.fonts.ready);
    const brand = page.getByRole('banner').getByRole('link').first();
    const lines = await brand.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    const brandBox = (await brand.boundingBox())!;
    const buttonBox = (await page.getByRole('banner').getByRole('link').nth(1).boundingBox())!;

    expect(lines).toBe(1);
    expect(brandBox.x).toBeGreaterThanOrEqual(0);
    expect(brandBox.x + brandBox.width).toBeLessThanOrEqual(buttonBox.x);
    // Both inside the page's side margins (1.25 rem), nothing pushed past the edge.
    expect(buttonBox.x + buttonBox.width).toBeLessThanOrEqual(390 - 16);
    await close();
  });

  test("the hero's two buttons are full width and equal", async () => {
    const { page, close } = await openPage(running.browser, phone);
    await page.goto(running.product.site);
    const buttons = page.locator('.hero__actions > a');
    const [first, second] = [(await buttons.nth(0).boundingBox())!, (await buttons.nth(1).boundingBox())!];
    const container = (await page.locator('.hero__text').boundingBox())!;

    expect(await buttons.count()).toBe(2);
    expect(first.width).toBeCloseTo(second.width, 0);
    expect(first.height).toBeCloseTo(second.height, 0);
    expect(first.width).toBeCloseTo(container.width, 0);
    expect(second.y).toBeGreaterThan(first.y);
    await close();
  });

  test("from 640 px the hero's buttons sit side by side", async () => {
    const { page, close } = await openPage(running.browser, { ...phone, viewport: { width: 640, height: 800 } });
    await page.goto(running.product.site);
    const buttons = page.locator('.hero__actions > a');
    const [first, second] = [(await buttons.nth(0).boundingBox())!, (await buttons.nth(1).boundingBox())!];

    expect(second.y).toBeCloseTo(first.y, 0);
    expect(second.x).toBeGreaterThan(first.x + first.width);
    await close();
  });
});
