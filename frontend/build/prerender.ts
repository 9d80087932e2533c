/**
 * Pre-renders the site into the client build (prerender-site.ts): the pages, the not-found page
 * and what crawlers and link previews read. Runs after both Vite builds (see the `build:site`
 * script). `SITE_URL`, the site's public address, adds the canonical address, `og:url`,
 * absolute image addresses and sitemap.xml (docs/deploy.md).
 *
 * A build with `SITE_URL` is a build for a deploy: with a placeholder left in content/ it fails
 * (exit 1, each named with its file and line), unless `STAGE` names a stage other than production
 * (the deploy workflow's staging build), which only warns. Production's also fails when `SITE_URL`
 * is not content/site.yaml's `address` (core/content/site-address.ts).
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOutput } from '../../core/build-output';
import {
  locatePlaceholders,
  placeholderFiles,
  placeholderPolicyFor,
  placeholderReport,
} from '../../core/content/placeholders';
import { siteAddressMismatch } from '../../core/content/site-address';
import { site } from '../../core/content/site';
import { parseSiteUrl, SiteUrlError } from './crawler-metadata';
import { prerenderSite } from './prerender-site';
import { systemFontsFound } from './site-images';
import type { RenderedPage } from './site-metadata';

let siteUrl: string | null;
try {
  siteUrl = parseSiteUrl(process.env.SITE_URL);
} catch (error) {
  if (!(error instanceof SiteUrlError)) throw error;
  console.error(error.message);
  process.exit(1);
}

// A build for a deploy (it has the site's address) says what would go live as a stand-in; production's refuses.
if (siteUrl !== null) {
  const sources = Object.fromEntries(
    await Promise.all(
      placeholderFiles.map(
        async (file) => [file, await readFile(path.join(process.cwd(), 'content', file), 'utf8')] as const,
      ),
    ),
  );
  const stage = process.env.STAGE || undefined;
  const policy = placeholderPolicyFor(stage);
  const report = placeholderReport(locatePlaceholders(sources), policy);
  if (report !== null && policy === 'fail') {
    console.error(`${report}\n(A staging build only warns: STAGE=staging.)`);
    process.exit(1);
  }
  if (report !== null) console.warn(`Warning: ${report}`);
  const addressMismatch = siteAddressMismatch(siteUrl, site.address, stage);
  if (addressMismatch !== null) {
    console.error(addressMismatch);
    process.exit(1);
  }
}

if (!systemFontsFound()) {
  console.warn(
    'No system font found: the preview image and icons will have no lettering (on Debian or Ubuntu: apt-get install fonts-dejavu-core).',
  );
}

const root = process.cwd();
const serverBundle = path.join(root, buildOutput.prerenderDirectory, 'entry-server.js');
const { render } = (await import(pathToFileURL(serverBundle).href)) as { render: (path: string) => RenderedPage };

const written = await prerenderSite({
  siteDir: path.join(root, buildOutput.siteDirectory),
  publicDir: path.join(root, 'frontend/public'),
  render,
  siteUrl,
});
await rm(path.dirname(serverBundle), { recursive: true, force: true });
console.log(`Pre-rendered into ${buildOutput.siteDirectory}: ${written.join(', ')}`);
console.log(siteUrl === null ? 'No SITE_URL: relative addresses, no sitemap.xml' : `Site address: ${siteUrl}`);
