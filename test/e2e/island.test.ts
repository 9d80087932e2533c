/**
 * The form's island in the browser: when its chunk is fetched, what it keeps of the visitor's
 * early typing, and that once hydrated it handles the submit itself (toasts, dialog, the JSON
 * calls) without the page navigating.
 */
import type { Page, Request } from 'playwright-core';
import { proofOfWorkChallengePath } from '../../core/api/proof-of-work';
import { apiRoutes, cheatSheetFormRoute } from '../../core/api/routes';
import { capturedEmails } from '../support/captured-emails';
import { hydratedIsland, openLandingPage, openPage, problemsIn, type OpenedPage } from './support/browser';
import { requestsFor } from './support/emulators';
import { useProductInBrowser } from './support/local-product';

jest.setTimeout(60_000);

const running = useProductInBrowser();
let opened: OpenedPage;
afterEach(() => opened?.close());

let visitorNumber = 0;
const newVisitor = () => ({
  name: `Ivy Island ${++visitorNumber}`,
  email: `ivy.${visitorNumber}.${Date.now()}@example.com`,
});

const islandChunk = (request: Request) => /\/assets\/hydrate-cheat-sheet-form-[^/]+\.js$/.test(request.url());
const submitButton = (page: Page) => page.getByRole('button', { name: 'Send Me the Cheat Sheet' });
const toast = (page: Page, title: string) =>
  page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: title });

async function fillIn(page: Page, visitor: { name: string; email: string }) {
  await page.getByLabel('Name').fill(visitor.name);
  await page.getByLabel('Email').fill(visitor.email);
  await page.getByRole('checkbox', { name: 'I confirm that I have purchased the book' }).check();
}

/** The paths of the API calls and of the documents the page requests from now on. */
function recordTraffic(page: Page) {
  const api: string[] = [];
  const documents: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/')) api.push(pathname);
    if (request.resourceType() === 'document') documents.push(request.url());
  });
  return { api, documents };
}

/** A phone, far above the form, whose browser is never idle: only the visitor can bring the island. */
async function openPhoneNeverIdle(): Promise<OpenedPage> {
  const phone = await openPage(running.browser, { viewport: { width: 390, height: 844 } });
  await phone.page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
    window.cancelIdleCallback = () => undefined;
  });
  return phone;
}

describe('when the island loads', () => {
  test('not before the form nears the viewport or the browser is idle; then as soon as the form is scrolled to', async () => {
    opened = await openPhoneNeverIdle();
    const { page } = opened;
    const islandRequests: string[] = [];
    page.on('request', (request) => {
      if (islandChunk(request)) islandRequests.push(request.url());
    });
    await page.goto(running.product.site, { waitUntil: 'load' });
    await page.waitForTimeout(1_500);
    expect(islandRequests).toEqual([]);
    expect(await page.locator(hydratedIsland).count()).toBe(0);

    const requested = page.waitForRequest(islandChunk);
    await page.evaluate(() => document.getElementById('download-section')!.scrollIntoView());
    await requested;

    await page.locator(hydratedIsland).waitFor({ state: 'attached' });
    expect(islandRequests).toHaveLength(1);
  });

  test('when the browser is idle, with the form still far below', async () => {
    opened = await openPage(running.browser, { viewport: { width: 390, height: 844 } });
    const { page } = opened;
    const requested = page.waitForRequest(islandChunk);

    await page.goto(running.product.site);

    await requested;
    await page.locator(hydratedIsland).waitFor({ state: 'attached' });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
});

describe('before the island has hydrated', () => {
  test('keeps what the visitor typed and ticked, and sends it once hydrated', async () => {
    opened = await openPhoneNeverIdle();
    const { page } = opened;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/hydrate-cheat-sheet-form-*.js', async (route) => {
      await held;
      await route.continue();
    });
    const ivy = newVisitor();
    await page.goto(running.product.site);
    await fillIn(page, ivy);
    expect(await page.locator(hydratedIsland).count()).toBe(0);

    release();
    await page.locator(hydratedIsland).waitFor({ state: 'attached' });

    expect(await page.getByLabel('Name').inputValue()).toBe(ivy.name);
    expect(await page.getByLabel('Email').inputValue()).toBe(ivy.email);
    expect(await page.getByRole('checkbox').isChecked()).toBe(true);
    await submitButton(page).click();
    await toast(page, 'Cheat Sheet Sent').waitFor();
    expect(await requestsFor(running.product.dynamodb, ivy.email)).toEqual([
      expect.objectContaining({ name: ivy.name, cheat_sheet_sent: true }),
    ]);
  });

  test('hydrates over what the visitor typed with no hydration warning or error in the console', async () => {
    opened = await openPhoneNeverIdle();
    const { page, console: messages } = opened;
    await page.goto(running.product.site);
    await page.getByLabel('Name').fill('Ivy Early');

    await page.locator(hydratedIsland).waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');

    expect(problemsIn(messages)).toEqual([]);
    expect(messages.filter((message) => /hydrat/i.test(message))).toEqual([]);
  });
});

describe('once the island has hydrated', () => {
  test('sends through the JSON routes, with the proof of work, and shows Cheat Sheet Sent as a toast, without navigating', async () => {
    opened = await openPage(running.browser);
    const { page } = opened;
    await openLandingPage(page, running.product.site);
    const landing = page.url();
    const traffic = recordTraffic(page);
    const ivy = newVisitor();
    await fillIn(page, ivy);

    await submitButton(page).click();

    await toast(page, 'Cheat Sheet Sent').waitFor();
    expect(page.url()).toBe(landing);
    expect(traffic.documents).toEqual([]);
    // The challenge is fetched while the request is saved: either may leave first.
    expect([...traffic.api].sort()).toEqual(
      [proofOfWorkChallengePath, apiRoutes.saveRequest, apiRoutes.sendCheatSheet].sort(),
    );
    expect(traffic.api.at(-1)).toBe(apiRoutes.sendCheatSheet);
    expect(traffic.api).not.toContain(cheatSheetFormRoute);
    expect(await capturedEmails(running.product.mail, ivy.email)).toHaveLength(1);
  });

  test('shows Verification Required for an unticked box, calling nothing and staying on the page', async () => {
    opened = await openPage(running.browser);
    const { page } = opened;
    await openLandingPage(page, running.product.site);
    const landing = page.url();
    const traffic = recordTraffic(page);
    await page.getByLabel('Name').fill('Ivy Unticked');
    await page.getByLabel('Email').fill('ivy.unticked@example.com');

    await submitButton(page).click();

    await toast(page, 'Verification Required').waitFor();
    expect(page.url()).toBe(landing);
    expect(traffic).toEqual({ api: [], documents: [] });
  });

  test('opens the Error Details dialog and the Error Processing Request toast on a failed send, without navigating', async () => {
    opened = await openPage(running.browser);
    const { page } = opened;
    await page.route(`**${apiRoutes.sendCheatSheet}`, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"error":"Boom"}' }),
    );
    await openLandingPage(page, running.product.site);
    const landing = page.url();
    const traffic = recordTraffic(page);
    await fillIn(page, newVisitor());

    await submitButton(page).click();

    const dialog = page.getByRole('dialog', { name: 'Error Details' });
    await dialog.waitFor();
    await toast(page, 'Error Processing Request').waitFor();
    expect(await dialog.getByText('Boom').count()).toBe(1);
    expect(page.url()).toBe(landing);
    expect(traffic.documents).toEqual([]);
  });
});
