import { openPage, problemsIn } from './support/browser';
import { useProductInBrowser } from './support/local-product';

jest.setTimeout(60_000);

const running = useProductInBrowser();

describe('an unknown path in the browser', () => {
  test('answers 404 with the not-found page, logs the path, and leads home', async () => {
    const { page, console: messages, close } = await openPage(running.browser);
    const response = await page.goto(new URL('/no/such/page', running.product.site).href);
    expect(response?.status()).toBe(404);

    await page.getByRole('heading', { name: '404' }).waitFor();
    await page.getByText('Oops! Page not found').waitFor();
    await page.waitForFunction(() => document.readyState === 'complete');
    const deadline = Date.now() + 5_000;
    while (!messages.some((message) => message.includes('/no/such/page')) && Date.now() < deadline) {
      await page.waitForTimeout(50);
    }
    expect(messages.some((message) => message.startsWith('error:') && message.includes('/no/such/page'))).toBe(true);
    // Beyond the 404 itself and the logged path: nothing, so the page hydrated without a mismatch.
    const unexpected = problemsIn(messages).filter(
      (message) => !message.includes('/no/such/page') && !message.includes('status of 404'),
    );
    expect(unexpected).toEqual([]);

    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL(running.product.site);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await close();
  });
});
