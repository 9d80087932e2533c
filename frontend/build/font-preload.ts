/**
 * The page's font, preloaded: the stylesheet names it only once the browser has parsed the CSS,
 * so without a hint the text would wait a round trip longer (or swap later). The pre-render adds
 * one `<link rel="preload">` per WOFF2 file the client build's stylesheets reference.
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The site-relative URLs of the WOFF2 files the stylesheets of `template` reference, in order. */
export async function fontFilesOf(template: string, siteDir: string): Promise<string[]> {
  const stylesheets = [...template.matchAll(/<link rel="stylesheet"[^>]* href="(\/assets\/[^"]+\.css)"/g)].map(
    (match) => match[1],
  );
  const fonts = new Set<string>();
  for (const stylesheet of stylesheets) {
    const css = await readFile(path.join(siteDir, stylesheet), 'utf8');
    for (const [, url] of css.matchAll(/url\((\/assets\/[^)]+\.woff2)\)/g)) fonts.add(url);
  }
  return [...fonts];
}

/** The template with a preload of each font before its first stylesheet (fonts need `crossorigin`). */
export function withFontPreloads(template: string, fontFiles: readonly string[]): string {
  if (fontFiles.length === 0) return template;
  const tags = fontFiles
    .map((file) => `<link rel="preload" href="${file}" as="font" type="font/woff2" crossorigin>\n    `)
    .join('');
  return template.replace(/<link rel="stylesheet"/, `${tags}<link rel="stylesheet"`);
}
