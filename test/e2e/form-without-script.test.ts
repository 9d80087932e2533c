/**
 * The form as a browser sends it without the page's script: JavaScript off, or the island's chunk
 * never arriving. It posts itself to the form route, which saves, sends and answers 303 to a
 * result page; no field of the form ever appears in a URL.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { cheatSheetFormRoute } from '../../core/api/routes';
import { formResultPaths } from '../../core/site-pages';
import { attachmentBytes, capturedEmails } from '../support/captured-emails';
import { pdfText } from '../support/pdf-text';
import { openPage, type OpenedPage } from './support/browser';
import { requestsFor } from './support/emulators';
import { useProductInBrowser } from './support/local-product';

jest.setTimeout(60_000);

const running = useProductInBrowser();
let opened: OpenedPage;
afterEach(() => opened?.close());

let visitorNumber = 0;
/**
 * A fresh mailbox per test, with characters a URL would have to escape. Fresh before the `+`: the
 * form route counts `+tag` variants as one mailbox, and one client's posts for one mailbox within
 * ten minutes as one post (lambdas/submit-form/form-key.ts).
 */
const newVisitor = () => ({
  name: `Zoë O'Nofield ${++visitorNumber}`,
  email: `zoe.nofield.${visitorNumber}.${Date.now()}+form@example.com`,
});

/** Every URL the browser requests or navigates to in this context, in order. */
function recordUrls(context: BrowserContext, page: Page): string[] {
  const urls: string[] = [];
  context.on('request', (request) => urls.push(request.url()));
  page.on('framenavigated', (frame) => urls.push(frame.url()));
  return urls;
}

function expectNoFieldIn(urls: readonly string[], visitor: { name: string; email: string }) {
  expect(urls.length).toBeGreaterThan(0);
  for (const url of urls) {
    const decoded = decodeURIComponent(url.replaceAll('+', ' '));
    expect({ url, hasQuery: new URL(url).search !== '' }).toEqual({ url, hasQuery: false });
    for (const typed of [visitor.name, visitor.email, 'zoe.nofield', 'Nofield', 'hasBook', 'website']) {
      expect({ url, typed, found: decoded.includes(typed) }).toEqual({ url, typed, found: false });
    }
  }
}

async function fillIn(page: Page, visitor: { name: string; email: string }, { tick = true } = {}) {
  await page.getByLabel('Name').fill(visitor.name);
  await page.getByLabel('Email').fill(visitor.email);
  if (tick) await page.getByRole('checkbox', { name: 'I confirm that I have purchased the book' }).check();
}

const submitButton = (page: Page) => page.getByRole('button', { name: 'Send Me the Cheat Sheet' });

describe('the form with JavaScript disabled', () => {
  test('sends the cheat sheet and lands on Cheat Sheet Sent, with no field in any URL', async () => {
    opened = await openPage(running.browser, { javaScriptEnabled: false });
    const { page } = opened;
    const urls = recordUrls(page.context(), page);
    const zoe = newVisitor();
    await page.goto(running.product.site);
    await fillIn(page, zoe);

    await Promise.all([page.waitForURL(`**${formResultPaths.sent}`), submitButton(page).click()]);

    expect(new URL(page.url()).pathname).toBe(formResultPaths.sent);
    await page.getByRole('heading', { level: 1, name: 'Cheat Sheet Sent' }).waitFor();
    expect(await page.getByText("We've sent the cheat sheet to your email. Please check your inbox.").count()).toBe(1);
    const [record] = await requestsFor(running.product.dynamodb, zoe.email);
    expect(record).toMatchObject({ name: zoe.name, email: zoe.email, cheat_sheet_sent: true });
    const emails = await capturedEmails(running.product.mail, zoe.email);
    expect(emails).toHaveLength(1);
    expect(await pdfText(attachmentBytes(emails[0].attachments[0]))).toContain('Money');
    expect(urls.some((url) => new URL(url).pathname === cheatSheetFormRoute)).toBe(true);
    expectNoFieldIn(urls, zoe);
  });

  test('with the box unticked, lands on Verification Required and stores and sends nothing', async () => {
    opened = await openPage(running.browser, { javaScriptEnabled: false });
    const { page } = opened;
    const urls = recordUrls(page.context(), page);
    const zoe = newVisitor();
    await page.goto(running.product.site);
    await fillIn(page, zoe, { tick: false });

    await Promise.all([page.waitForURL(`**${formResultPaths.notConfirmed}`), submitButton(page).click()]);

    await page.getByRole('heading', { level: 1, name: 'Verification Required' }).waitFor();
    expect(await page.getByText('Please confirm that you have purchased the book').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Back to the form' }).getAttribute('href')).toBe('/#download-section');
    expect(await requestsFor(running.product.dynamodb, zoe.email)).toEqual([]);
    expect(await capturedEmails(running.product.mail, zoe.email)).toEqual([]);
    expectNoFieldIn(urls, zoe);
  });
});

describe("the form when the island's chunk never arrives", () => {
  test('posts itself to the form route and still sends the cheat sheet', async () => {
    opened = await openPage(running.browser);
    const { page, console: messages } = opened;
    const urls = recordUrls(page.context(), page);
    await page.route('**/assets/hydrate-cheat-sheet-form-*.js', (route) => route.abort('connectionrefused'));
    const blocked = page.waitForEvent('requestfailed', (request) => request.url().includes('hydrate-cheat-sheet-form'));
    const zoe = newVisitor();
    await page.goto(running.product.site);
    await fillIn(page, zoe); // focusing the form asks for the island at once
    await blocked;

    await Promise.all([page.waitForURL(`**${formResultPaths.sent}`), submitButton(page).click()]);

    await page.getByRole('heading', { level: 1, name: 'Cheat Sheet Sent' }).waitFor();
    expect(await capturedEmails(running.product.mail, zoe.email)).toHaveLength(1);
    expect(await requestsFor(running.product.dynamodb, zoe.email)).toEqual([
      expect.objectContaining({ cheat_sheet_sent: true }),
    ]);
    expect(messages.some((message) => message.startsWith('warning: The form will be sent without its script'))).toBe(
      true,
    );
    expectNoFieldIn(urls, zoe);
  });
});
