/**
 * The author's funnel, end to end, on a product of its own (the shared one counts every other
 * file's visits): 12 visits to `/` from 3 browsers, one without JavaScript, and 1 from a known
 * bot; 4 requests from two of them, through the page's script and through the form's own post.
 * `npm run leads -- funnel --days 1` then shows 12 visits, 3 unique visitors, 4 requests, 4 sent
 * and 133%, and no browser holds a cookie or anything in local storage for the site.
 */

import { Readable } from 'node:stream';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BrowserContext, Page } from 'playwright-core';
import { formResultPaths } from '../../core/site-pages';
import { runLeadsCommand } from '../../ops/leads/leads-command';
import { hydratedIsland } from './support/browser';
import { startLocalProduct, useProductInBrowser, type LocalProduct } from './support/local-product';

jest.setTimeout(90_000);

const running = useProductInBrowser();
let product: LocalProduct;
beforeAll(async () => {
  product = await startLocalProduct();
}, 60_000);
afterAll(() => product?.stop());

/** Three readers' browsers (one address, three user agents, as three people behind one network) and a crawler. */
const userAgents = {
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  edgeWithoutScript:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

async function fillIn(page: Page, email: string) {
  await page.getByLabel('Name').fill('Ada Funnel');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('checkbox', { name: 'I confirm that I have purchased the book' }).check();
}
const submit = (page: Page) => page.getByRole('button', { name: 'Send Me the Cheat Sheet' }).click();
const sentToast = (page: Page) =>
  page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: 'Cheat Sheet Sent' });

async function visits(context: BrowserContext, count: number, onVisit?: (page: Page, visit: number) => Promise<void>) {
  const page = await context.newPage();
  for (let visit = 1; visit <= count; visit += 1) {
    await page.goto(product.site);
    await onVisit?.(page, visit);
  }
}

test('12 visits from 3 browsers, a bot and 4 requests: 12 visits, 3 unique visitors, 4 requests, 4 sent, 133%', async () => {
  const contextOf = (userAgent: string, javaScriptEnabled = true) =>
    running.browser.newContext({ userAgent, javaScriptEnabled });
  const withScript = await contextOf(userAgents.firefox);
  const alsoWithScript = await contextOf(userAgents.safari);
  const withoutScript = await contextOf(userAgents.edgeWithoutScript, false);
  const crawler = await contextOf(userAgents.googlebot);
  const contexts = [withScript, alsoWithScript, withoutScript, crawler];
  try {
    const run = Date.now();
    // Two requests through the page's script, on its 4th and 5th visit.
    await visits(withScript, 5, async (page, visit) => {
      if (visit < 4) return;
      await page.locator(hydratedIsland).waitFor({ state: 'attached' });
      await fillIn(page, `ada.funnel.${visit}.${run}@example.com`);
      await submit(page);
      await sentToast(page).waitFor();
    });
    await visits(alsoWithScript, 3);
    // Two through the form's own post, on its 3rd and 4th visit; the result page is not `/`.
    await visits(withoutScript, 4, async (page, visit) => {
      if (visit < 3) return;
      await fillIn(page, `ada.funnel.noscript.${visit}.${run}@example.com`);
      await Promise.all([page.waitForURL(`**${formResultPaths.sent}`), submit(page)]);
    });
    await visits(crawler, 1);

    let stdout = '';
    const dynamoDb = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: product.dynamodb,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    const code = await runLeadsCommand(['funnel', '--days', '1'], {
      stdout: (text) => (stdout += text),
      stderr: () => {},
      stdin: Readable.from([]),
      env: {},
      clients: () => ({
        dynamoDb,
        cloudFormation: new CloudFormationClient({ region: 'us-east-1' }),
        ses: new SESv2Client({ region: 'us-east-1' }),
      }),
    });

    expect(code).toBe(0);
    const [header, today] = stdout.split('\n').map((line) => line.trim().split(/\s{2,}/));
    expect(Object.fromEntries(header!.map((heading, index) => [heading, today![index]]))).toMatchObject({
      visits: '12',
      'unique visitors': '3',
      requests: '4',
      sent: '4',
      conversion: '133%',
    });
    for (const context of contexts) expect(await context.storageState()).toEqual({ cookies: [], origins: [] });
  } finally {
    for (const context of contexts) await context.close();
  }
});
