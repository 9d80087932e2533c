import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { openLandingPage, openPage } from './support/browser';
import { useProductInBrowser } from './support/local-product';

jest.setTimeout(60_000);

const running = useProductInBrowser();

/** axe-core's serious and critical violations, as "rule: target" lines. */
async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page: page as never });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

describe('accessibility (axe-core)', () => {
  test('the landing page has no serious or critical violation', async () => {
    const { page, close } = await openPage(running.browser);
    await openLandingPage(page, running.product.site);
    expect(await seriousViolations(page)).toEqual([]);
    await close();
  });

  test('the privacy page has no serious or critical violation', async () => {
    const { page, close } = await openPage(running.browser);
    await page.goto(new URL('/privacy', running.product.site).href);
    expect(await seriousViolations(page)).toEqual([]);
    await close();
  });

  test('the open Error Details dialog has no serious or critical violation', async () => {
    const { page, close } = await openPage(running.browser);
    await page.route('**/api/send-cheat-sheet', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"error":"Boom"}' }),
    );
    await openLandingPage(page, running.product.site);
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Send Me the Cheat Sheet' }).click();
    await page.getByRole('dialog', { name: 'Error Details' }).waitFor();
    expect(await seriousViolations(page, 'dialog')).toEqual([]);
    await close();
  });

  test('the page with a toast showing has no serious or critical violation', async () => {
    const { page, close } = await openPage(running.browser);
    await openLandingPage(page, running.product.site);
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send Me the Cheat Sheet' }).click();
    const toast = page
      .getByRole('region', { name: 'Notifications' })
      .getByRole('listitem')
      .filter({ hasText: 'Verification Required' });
    await toast.waitFor();
    // A hovered toast stays: on a busy machine its 4 s could run out before axe-core reads it.
    await toast.hover();
    await page.waitForTimeout(500); // a toast fades only at the end of its life, which the hover pauses
    expect(await seriousViolations(page, '.toasts')).toEqual([]);
    await close();
  });

  test('the form, honeypot included, has no violation of any impact', async () => {
    const { page, close } = await openPage(running.browser);
    await openLandingPage(page, running.product.site);
    const { violations } = await new AxeBuilder({ page: page as never }).include('.cheat-sheet-form').analyze();
    expect(violations.map((violation) => violation.id)).toEqual([]);
    await close();
  });

  test('the honeypot is off-screen, outside the accessibility tree and skipped by Tab', async () => {
    const { page, close } = await openPage(running.browser);
    await openLandingPage(page, running.product.site);
    const honeypot = page.locator('input[name="website"]');

    const box = await honeypot.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(0);
    expect(
      await page.getByRole('textbox').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('name'))),
    ).toEqual(['name', 'email']);
    await page.getByLabel('Email').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('hasBook');
    await close();
  });

  test('the not-found page has no serious or critical violation', async () => {
    const { page, close } = await openPage(running.browser);
    await page.goto(new URL('/missing', running.product.site).href);
    expect(await seriousViolations(page)).toEqual([]);
    await close();
  });
});
