/**
 * Pre-renders the pages into the client build: one file per page of core/site-pages.ts
 * (index.html, privacy.html...) and frontend/dist/404.html (the not-found page, served for every
 * unknown path with status 404).
 * Runs after both Vite builds (see the `build:site` script).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOutput } from '../../core/build-output';
import { notFoundPage, sitePages } from '../../core/site-pages';
import { withSiteMetadata } from './site-metadata';

const root = process.cwd();
const clientDir = path.join(root, buildOutput.siteDirectory);
const serverBundle = path.join(root, buildOutput.prerenderDirectory, 'entry-server.js');

const { render } = (await import(pathToFileURL(serverBundle).href)) as { render: (path: string) => string };
const template = await readFile(path.join(clientDir, 'index.html'), 'utf8');

function page(appHtml: string, title?: string): string {
  if (!template.includes('<!--app-html-->')) throw new Error('frontend/dist/index.html has no <!--app-html--> slot');
  return withSiteMetadata(template.replace('<!--app-html-->', appHtml), title);
}

for (const { path: pagePath, file, title } of sitePages) {
  await writeFile(path.join(clientDir, file), page(render(pagePath), title));
}
// Any path not listed renders the not-found page; this one stands for all of them.
await writeFile(path.join(clientDir, notFoundPage.file), page(render('/404'), notFoundPage.title));
await rm(path.dirname(serverBundle), { recursive: true, force: true });
console.log(`Pre-rendered ${buildOutput.pages.map((file) => `${buildOutput.siteDirectory}/${file}`).join(', ')}`);
