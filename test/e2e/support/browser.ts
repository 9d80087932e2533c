/** Debian's Chromium, driven by playwright-core, with no network chatter of its own. */
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
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
