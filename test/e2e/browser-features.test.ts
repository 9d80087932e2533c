/**
 * The shared Chromium's features (test/e2e/support/browser.ts): the omnibox's WebUI popups are off,
 * and so is every feature Playwright itself turns off, which our --disable-features replaces.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { omniboxPopupFeatures, openPage, playwrightDisabledFeatures } from './support/browser';
import { useProductInBrowser } from './support/local-product';

const running = useProductInBrowser();

/** The features the installed playwright-core turns off, read from its source as it writes them. */
function installedPlaywrightDisabledFeatures(): string[] {
  const entry = createRequire(import.meta.filename).resolve('playwright-core');
  const bundle = readFileSync(path.join(path.dirname(entry), 'lib/coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([^\]]*)\]/.exec(bundle)?.[1];
  if (!list) throw new Error("playwright-core's disabledFeatures list was not found: update this test");
  return [...list.matchAll(/^\s*"([A-Za-z0-9]+)"/gm)].map((match) => match[1]);
}

describe('the browser the tests share', () => {
  test('turns off every feature the installed Playwright turns off', () => {
    expect(installedPlaywrightDisabledFeatures()).toEqual(playwrightDisabledFeatures);
  });

  test('opens a browser context with the page alone: no omnibox popup pages beside it', async () => {
    expect(omniboxPopupFeatures).toContain('WebUIOmniboxPopup');
    const opened = await openPage(running.browser);
    await opened.page.goto(`${running.product.site}robots.txt`);
    const session = await running.browser.newBrowserCDPSession();
    const { targetInfos } = (await session.send('Target.getTargets')) as {
      targetInfos: Array<{ type: string; url: string }>;
    };
    await session.detach();
    await opened.close();
    expect(targetInfos.filter((target) => target.url.includes('top-chrome'))).toEqual([]);
  });
});
