import { formPrivacyNotice, privacy } from '../../core/content/privacy';
import { openPage, problemsIn } from './support/browser';
import { useProductInBrowser } from './support/local-product';

jest.setTimeout(60_000);

const running = useProductInBrowser();

describe('the privacy page in the browser', () => {
  test('is reached from the notice under the form, answers 200 and hydrates cleanly', async () => {
    const { page, console: messages, close } = await openPage(running.browser);
    await page.goto(running.product.site);
    const form = page.locator('#download-section');
    const privacyResponse = page.waitForResponse((response) => new URL(response.url()).pathname === '/privacy');
    await form.getByRole('link', { name: formPrivacyNotice.linkText }).click();

    expect((await privacyResponse).status()).toBe(200);
    await page.waitForURL(new URL('/privacy', running.product.site).href);
    await page.getByRole('heading', { level: 1, name: privacy.heading }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(problemsIn(messages)).toEqual([]);
    await close();
  });
});
