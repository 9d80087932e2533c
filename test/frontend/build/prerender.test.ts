/**
 * @jest-environment jsdom
 */
/**
 * Reads the build output (`npm test` builds first): the pages must carry their text before any
 * script runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { outlinePhases } from '../../../core/content/outline';

const dist = path.join(process.cwd(), 'frontend/dist');

function builtPage(file: string): Document {
  const html = path.join(dist, file);
  if (!existsSync(html)) throw new Error(`${html} is missing: run npm run build first`);
  return new DOMParser().parseFromString(readFileSync(html, 'utf8'), 'text/html');
}

describe('the pre-rendered privacy page', () => {
  test('holds its text, in the layout, with its own title', () => {
    const page = builtPage('privacy.html');
    expect(page.querySelector('h1')?.textContent).toBe('Privacy');
    expect(page.body.textContent).toContain('What we collect');
    expect(page.querySelector('header')).not.toBeNull();
    expect(page.querySelector('footer')).not.toBeNull();
    expect(page.title).toMatch(/^Privacy · /);
  });

  test('is linked from the landing page under the form', () => {
    const link = builtPage('index.html').querySelector('#download-section a[href="/privacy"]');
    expect(link?.textContent).toBe('How we handle your data');
  });
});

describe('the pre-rendered landing page', () => {
  test('holds the nine outline items in its HTML', () => {
    const text = builtPage('index.html').body.textContent ?? '';
    const items = outlinePhases.flatMap((phase) => phase.items.map((item) => item.content));
    expect(items).toHaveLength(9);
    for (const item of items) expect(text).toContain(item);
  });

  test('holds the download section with its heading and form', () => {
    const section = builtPage('index.html').getElementById('download-section');
    expect(section?.textContent).toContain('Get Your Free Business Operations Cheat Sheet');
    expect(section?.querySelector('input[type="email"]')).not.toBeNull();
  });

  test('has the page title, description and sharing tags, and loads its script as a module', () => {
    const page = builtPage('index.html');
    expect(page.title).toBe(
      'The First 100 Days of Ownership: A 100-Day Blueprint for Mastering Money, People, and Capacity',
    );
    expect(page.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe(page.title);
    expect(page.querySelector('meta[name="description"]')?.getAttribute('content')).toContain('MPC Framework');
    expect(page.querySelector('script[type="module"][src^="/assets/"]')).not.toBeNull();
  });
});

describe('the pre-rendered not-found page', () => {
  test('holds 404, the message and the way home', () => {
    const page = builtPage('404.html');
    expect(page.body.textContent).toContain('404');
    expect(page.body.textContent).toContain('Oops! Page not found');
    expect(page.querySelector('a[href="/"]')?.textContent).toBe('Return to Home');
  });
});
