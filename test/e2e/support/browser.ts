/** Debian's Chromium, driven by playwright-core, with no network chatter of its own. */
import { chromium, type Browser, type BrowserContextOptions, type BrowserServer, type Page } from 'playwright-core';
import { cheatSheetIslandId, hydratedAttribute } from '../../../frontend/src/islands/island-markers';

export const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * The features Playwright turns off (playwright-core's chromiumSwitches.ts). Chromium reads only the
 * last --disable-features it is given, so ours repeats them: test/e2e/browser-features.test.ts
 * checks the list against the installed playwright-core.
 */
export const playwrightDisabledFeatures = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium's new headless mode gives every window (one per browser context) the omnibox's two popups
 * as WebUI pages, each in a renderer of its own, which redraws as the page loads: about half of
 * Chromium's CPU in these tests (20 landing pages, each in a fresh context: 31 s of Chromium's CPU
 * with them, 16 s without; docs/performance.md). A headless browser never shows them.
 */
export const omniboxPopupFeatures = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'PreloadTopChromeWebUI'];

/** Debian's Chromium with the flags this machine needs, and no network of its own: names resolve to nothing but loopback. */
const launchOptions = {
  executablePath: chromiumPath,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    `--disable-features=${[...playwrightDisabledFeatures, ...omniboxPopupFeatures].join(',')}`,
  ],
};

/** Chromium for several processes: the e2e global setup starts it, each test file connects. */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer(launchOptions);
}

export function connectBrowser(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}

export interface OpenedPage {
  readonly page: Page;
  /** Every console message, as "type: text". */
  readonly console: string[];
  readonly close: () => Promise<void>;
}

/** Console messages that are errors, warnings or uncaught exceptions. */
export const problemsIn = (messages: readonly string[]) =>
  messages.filter((message) => /^(error|warning|pageerror)/.test(message));

/** A fresh context and page; the console is recorded. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<OpenedPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const messages: string[] = [];
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  return { page, console: messages, close: () => context.close() };
}

/** The form's island once React has hydrated it: from then on the page's script handles the submit. */
export const hydratedIsland = `#${cheatSheetIslandId}[${hydratedAttribute}]`;

/**
 * Opens the landing page and waits until the form's island is live (it loads when the form nears
 * the viewport or the browser is idle), so a test of the toasts and the dialog meets the page's
 * script and not the form's own post.
 */
export async function openLandingPage(page: Page, site: string): Promise<void> {
  await page.goto(site);
  await page.locator(hydratedIsland).waitFor({ state: 'attached' });
}
