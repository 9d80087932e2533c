import { chromium } from 'playwright-core';
const [site, path, width, height, out] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
await page.goto(new URL(path!, site).href);
await page.evaluate(() => document.fonts.ready);
await page.screenshot({ path: out! });
console.log('doc height', await page.evaluate(() => document.documentElement.scrollHeight), 'font', await page.evaluate(() => [...document.fonts].map(f => f.family + ':' + f.status).join(',')));
await browser.close();
