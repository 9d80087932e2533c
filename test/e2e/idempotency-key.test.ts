/**
 * The page's Idempotency-Key in Chromium against the local product: the first send reaches the
 * API and e-mails the cheat sheet, but its reply is lost on the way back (the route answers the
 * page with a gateway error instead). "Try Again" sends the same key again, so the API replays its
 * first reply: the reader sees Cheat Sheet Sent and receives one e-mail, not two.
 */

import type { Page } from 'playwright-core';
import { capturedEmails } from '../support/captured-emails';
import { openLandingPage, openPage, type OpenedPage } from './support/browser';
import { requestsFor } from './support/emulators';
import { useProductInBrowser } from './support/local-product';

jest.setTimeout(60_000);

let opened: OpenedPage;
let page: Page;

const running = useProductInBrowser();
beforeEach(async () => {
  opened = await openPage(running.browser);
  page = opened.page;
  await openLandingPage(page, running.product.site);
});
afterEach(() => opened.close());

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('Try Again after a lost reply sends the same key on both calls, and the reader gets one e-mail', async () => {
  const ada = { name: 'Ada Retry', email: `ada.retry.${Date.now()}@example.com` };
  const keys: Array<{ path: string; key: string | null }> = [];
  let sends = 0;
  await page.route('**/api/**', async (route) => {
    const path = new URL(route.request().url()).pathname;
    // The proof of work's challenge (a GET, fetched afresh on each submit) carries no key.
    if (route.request().method() === 'GET') return route.continue();
    keys.push({ path, key: await route.request().headerValue('idempotency-key') });
    if (path !== '/api/send-cheat-sheet') return route.continue();
    sends += 1;
    const reply = await route.fetch(); // the API does its work: the e-mail goes out
    if (sends > 1) return route.fulfill({ response: reply });
    expect(reply.status()).toBe(200);
    // ...but its reply is lost: the page gets a gateway's error page instead.
    return route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });
  });

  await page.getByLabel('Name').fill(ada.name);
  await page.getByLabel('Email').fill(ada.email);
  await page.getByRole('checkbox', { name: 'I confirm that I have purchased the book' }).check();
  await page.getByRole('button', { name: 'Send Me the Cheat Sheet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Error Details' });
  await dialog.waitFor();
  expect(await capturedEmails(running.product.mail, ada.email)).toHaveLength(1);

  await dialog.getByRole('button', { name: 'Try Again' }).click();
  await page
    .getByRole('region', { name: 'Notifications' })
    .getByRole('listitem')
    .filter({ hasText: 'Cheat Sheet Sent' })
    .waitFor();

  expect(keys.map(({ path }) => path)).toEqual([
    '/api/cheat-sheet-requests',
    '/api/send-cheat-sheet',
    '/api/cheat-sheet-requests',
    '/api/send-cheat-sheet',
  ]);
  expect(keys[0]!.key).toMatch(uuid);
  for (const { key } of keys) expect(key).toBe(keys[0]!.key);
  expect(await capturedEmails(running.product.mail, ada.email)).toHaveLength(1);
  const records = await requestsFor(running.product.dynamodb, ada.email);
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({
    cheat_sheet_sent: true,
    consent: { statement: 'I confirm that I have purchased the book' },
  });
});
