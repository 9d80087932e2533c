/** A stand-in for frontend/dist, so the local server's tests do not depend on the real build. */

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface SiteFixture {
  /** The site directory, inside a temp folder that also holds a file outside it. */
  readonly siteDir: string;
  readonly landingText: string;
  readonly notFoundText: string;
  readonly privacyText: string;
  /** The text of the fixture's /cheat-sheet/sent page. */
  readonly resultText: string;
  readonly assetPath: string;
  readonly assetBody: string;
  remove(): Promise<void>;
}

export async function createSiteFixture(): Promise<SiteFixture> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-fixture-'));
  const siteDir = path.join(root, 'dist');
  const landingText = 'The First 100 Days of Ownership (fixture landing page)';
  const notFoundText = 'Oops! Page not found';
  const privacyText = 'Privacy (fixture privacy page)';
  const resultText = 'Cheat Sheet Sent (fixture result page)';
  const assetBody = 'console.log("hashed asset");';
  const files: Record<string, string> = {
    'index.html': `<!doctype html><html><body><h1>${landingText}</h1></body></html>`,
    'privacy.html': `<!doctype html><html><body><h1>${privacyText}</h1></body></html>`,
    '404.html': `<!doctype html><html><body><h1>404</h1><p>${notFoundText}</p></body></html>`,
    'cheat-sheet/sent.html': `<!doctype html><html><body><h1>${resultText}</h1></body></html>`,
    'assets/index-Ab12Cd34.js': assetBody,
    'assets/index-Ef56Gh78.css': 'body{margin:0}',
    'images/book-cover.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'favicon.ico': 'ico',
    '.env': 'SECRET=1',
  };
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(siteDir, name)), { recursive: true });
    await writeFile(path.join(siteDir, name), content);
  }
  // Outside the site: must never be served.
  await writeFile(path.join(root, 'secret.txt'), 'outside the site');
  return {
    siteDir,
    landingText,
    notFoundText,
    privacyText,
    resultText,
    assetPath: '/assets/index-Ab12Cd34.js',
    assetBody,
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
