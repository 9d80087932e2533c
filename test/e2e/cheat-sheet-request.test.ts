import type { Page } from 'playwright-core';
import { outlinePhases } from '../../core/content/outline';
import { pdfText } from '../support/pdf-text';
import { openLandingPage, openPage, problemsIn, type OpenedPage } from './support/browser';
import { attachmentBytes, capturedEmails } from '../support/captured-emails';
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

let visitor = 0;
/** A fresh address per test, so each test reads only its own records and e-mails. */
const newVisitor = () => ({ name: `Ada Owner ${++visitor}`, email: `ada.${visitor}.${Date.now()}@example.com` });

async function fillIn(visitor: { name: string; email: string }, { tick = true } = {}) {
  await page.getByLabel('Name').fill(visitor.name);
  await page.getByLabel('Email').fill(visitor.email);
  if (tick) await page.getByRole('checkbox', { name: 'I confirm that I have purchased the book' }).check();
}

const submitButton = () => page.getByRole('button', { name: 'Send Me the Cheat Sheet' });
const toast = (title: string) =>
  page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: title });

describe('requesting the cheat sheet in the browser', () => {
  test('sends the cheat sheet, records the send and empties the form', async () => {
    const ada = newVisitor();
    await fillIn(ada);
    // Hold the send call so the submitting state can be seen.
    let releaseSend: () => void = () => {};
    const sendHeld = new Promise<void>((resolve) => (releaseSend = resolve));
    await page.route('**/api/send-cheat-sheet', async (route) => {
      await sendHeld;
      await route.continue();
    });

    await submitButton().click();
    const busy = page.getByRole('button', { name: 'Submitting...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    releaseSend();

    await toast('Cheat Sheet Sent').waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    expect(await page.getByRole('checkbox').isChecked()).toBe(false);

    const [record] = await requestsFor(running.product.dynamodb, ada.email);
    expect(record).toMatchObject({ name: ada.name, email: ada.email, cheat_sheet_sent: true });
    expect(typeof record.sent_at).toBe('string');

    const emails = await capturedEmails(running.product.mail, ada.email);
    expect(emails).toHaveLength(1);
    expect(problemsIn(opened.console)).toEqual([]); // no CSP violation, no React warning
    const [attachment] = emails[0].attachments;
    expect(attachment.contentType).toBe('application/pdf');
    const text = (await pdfText(attachmentBytes(attachment), { raw: true })).replace(/\s+/g, ' ');
    for (const item of outlinePhases.flatMap((phase) => phase.items)) expect(text).toContain(item.content);
  });

  test('solves the proof of work on submit and sends it once: replayed, or missing, a send is refused', async () => {
    const ada = newVisitor();
    const proofs: Array<string | null> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/send-cheat-sheet'))
        proofs.push(request.headers()['x-cheat-sheet-proof'] ?? null);
    });
    await fillIn(ada);
    await submitButton().click();
    await toast('Cheat Sheet Sent').waitFor();
    expect(proofs).toEqual([expect.any(String)]);

    const grace = newVisitor();
    const postSend = (headers: Record<string, string>) =>
      fetch(`${running.product.site}api/send-cheat-sheet`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ name: grace.name, email: grace.email }),
      });
    const replayed = await postSend({ 'X-Cheat-Sheet-Proof': proofs[0]! });
    const missing = await postSend({});

    expect([replayed.status, missing.status]).toEqual([403, 403]);
    expect(await replayed.json()).toMatchObject({ code: 'proof_of_work_refused' });
    expect(await capturedEmails(running.product.mail, grace.email)).toEqual([]);
    expect(await capturedEmails(running.product.mail, ada.email)).toHaveLength(1);
  });

  test('with the box unticked, asks for confirmation and stores and sends nothing', async () => {
    const ada = newVisitor();
    const apiRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(request.url());
    });
    await fillIn(ada, { tick: false });
    await submitButton().click();

    await toast('Verification Required').waitFor();
    expect(apiRequests).toEqual([]);
    expect(await toast('Verification Required').textContent()).toContain(
      'Please confirm that you have purchased the book',
    );
    expect(await requestsFor(running.product.dynamodb, ada.email)).toEqual([]);
    expect(await capturedEmails(running.product.mail, ada.email)).toEqual([]);
  });

  test('when the API is unreachable, shows Submission Failed and the details; Try Again resubmits', async () => {
    const ada = newVisitor();
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await fillIn(ada);
    await submitButton().click();

    await toast('Submission Failed').waitFor();
    const dialog = page.getByRole('dialog', { name: 'Error Details' });
    await dialog.waitFor();

    await page.unroute('**/api/**');
    const resubmitted = page.waitForRequest('**/api/send-cheat-sheet');
    await dialog.getByRole('button', { name: 'Try Again' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await resubmitted;
    await toast('Cheat Sheet Sent').waitFor();
    expect(await capturedEmails(running.product.mail, ada.email)).toHaveLength(1);
  });

  test('when the sender is not verified, shows the inline Email Configuration Error and no dialog', async () => {
    await page.route('**/api/send-cheat-sheet', (route) =>
      route.fulfill({
        status: 502,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, error: 'The sender email domain is not verified. Please verify it.' }),
      }),
    );
    await fillIn(newVisitor());
    await submitButton().click();

    const alert = page.getByRole('alert').filter({ hasText: 'Email Configuration Error' });
    await alert.waitFor();
    await toast('Domain Verification Error').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});

describe('the Error Details dialog in the browser', () => {
  async function openDialog() {
    await page.route('**/api/send-cheat-sheet', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"error":"Boom"}' }),
    );
    await fillIn(newVisitor());
    await submitButton().click();
    const dialog = page.getByRole('dialog', { name: 'Error Details' });
    await dialog.waitFor();
    return dialog;
  }

  const focusedIsInDialog = () =>
    page.evaluate(() => document.activeElement?.closest('dialog') !== null && document.activeElement !== document.body);

  test('is modal: focus moves in and stays in while tabbing', async () => {
    await openDialog();
    expect(await focusedIsInDialog()).toBe(true);
    for (let press = 0; press < 6; press++) {
      await page.keyboard.press('Tab');
      const focusedOutside = await page.evaluate(() => {
        const active = document.activeElement;
        // Chromium may step onto the browser UI (body) between cycles; never onto the page behind.
        return active !== null && active !== document.body && active.closest('dialog') === null;
      });
      expect(focusedOutside).toBe(false);
    }
  });

  test('closes on Escape and gives focus back to the submit button', async () => {
    const dialog = await openDialog();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // The dialog's close event, which hands focus back, fires a task after it hides.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Send Me the Cheat Sheet', null, {
      timeout: 2_000,
    });
  });

  test('Close closes it', async () => {
    const dialog = await openDialog();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('the form from the keyboard alone', () => {
  test('can be filled, ticked and submitted without a mouse', async () => {
    const ada = newVisitor();
    await page.getByLabel('Name').focus();
    await page.keyboard.type(ada.name);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ada.email);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');

    await toast('Cheat Sheet Sent').waitFor();
    expect(await capturedEmails(running.product.mail, ada.email)).toHaveLength(1);
  });
});
