/** `npm run build:pdf`: writes the cheat-sheet PDF to dist/cheat-sheet/ (git-ignored). */

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildOutput } from '../core/build-output';
import { buildCheatSheetPdf } from '../core/documents/cheat-sheet-pdf';

const outputPath = path.join(process.cwd(), buildOutput.cheatSheetDirectory, buildOutput.cheatSheetFile);
const pdf = await buildCheatSheetPdf();
await mkdir(path.dirname(outputPath), { recursive: true });
await writeFile(outputPath, pdf);
console.log(`Cheat sheet: ${path.relative(process.cwd(), outputPath)} (${pdf.length} bytes)`);
