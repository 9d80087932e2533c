/**
 * Pre-renders the site into the client build (prerender-site.ts): the pages, the not-found page
 * and what crawlers and link previews read. Runs after both Vite builds (see the `build:site`
 * script). `SITE_URL`, the site's public address, adds the canonical address, `og:url`,
 * absolute image addresses and sitemap.xml (docs/deploy.md).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOutput } from '../../core/build-output';
import { placeholderWarning, placeholdersIn } from '../../core/content/placeholders';
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

// A production build (it has the site's address) says what would go live as a stand-in.
const placeholders = siteUrl === null ? null : placeholderWarning(placeholdersIn());
if (placeholders !== null) console.warn(`Warning: ${placeholders}`);
