/**
 * Pre-renders the pages into the client build: every page of core/site-pages.ts (the landing
 * page, the form's result pages) to its file, and frontend/dist/404.html (the not-found page,
 * served for every unknown path with status 404). Runs after both Vite builds (see the
 * `build:site` script).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOutput } from '../../core/build-output';
import { notFoundFile, sitePages } from '../../core/site-pages';
import { withSiteMetadata, type RenderedPage } from './site-metadata';

const root = process.cwd();
const clientDir = path.join(root, buildOutput.siteDirectory);
const serverBundle = path.join(root, buildOutput.prerenderDirectory, 'entry-server.js');

const { render } = (await import(pathToFileURL(serverBundle).href)) as { render: (path: string) => RenderedPage };
const template = await readFile(path.join(clientDir, 'index.html'), 'utf8');
if (!template.includes('<!--app-html-->')) throw new Error('frontend/dist/index.html has no <!--app-html--> slot');

async function writePage(file: string, urlPath: string): Promise<void> {
  const page = render(urlPath);
  const target = path.join(clientDir, file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, withSiteMetadata(template.replace('<!--app-html-->', page.html), page));
}

for (const page of sitePages) await writePage(page.file, page.path);
// Any path that is not a page renders the not-found page; this one stands for all of them.
await writePage(notFoundFile, '/404');
await rm(path.dirname(serverBundle), { recursive: true, force: true });
console.log(`Pre-rendered ${[...sitePages.map((page) => page.file), notFoundFile].join(', ')} into frontend/dist`);
