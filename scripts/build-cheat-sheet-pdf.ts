/**
 * `npm run build:pdf`: writes the cheat-sheet PDF to dist/cheat-sheet/ (git-ignored). `SITE_URL`
 * (as for the site) puts the site's address at the PDF's foot.
 */

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOutput } from '../core/build-output';
import { buildCheatSheetPdf } from '../core/documents/cheat-sheet-pdf';
import { parseSiteUrl, SiteUrlError } from '../frontend/build/crawler-metadata';
import { readDocumentFonts } from '../frontend/build/document-fonts';

let siteUrl: string | null;
try {
  siteUrl = parseSiteUrl(process.env.SITE_URL);
} catch (error) {
  if (!(error instanceof SiteUrlError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const repository = fileURLToPath(new URL('..', import.meta.url));
const outputPath = path.join(process.cwd(), buildOutput.cheatSheetDirectory, buildOutput.cheatSheetFile);
const pdf = await buildCheatSheetPdf({ fonts: await readDocumentFonts(repository), siteUrl });
await mkdir(path.dirname(outputPath), { recursive: true });
await writeFile(outputPath, pdf);
console.log(`Cheat sheet: ${path.relative(process.cwd(), outputPath)} (${pdf.length} bytes)`);
