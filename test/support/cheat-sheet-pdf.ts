/**
 * The cheat-sheet PDF as the build makes it (its fonts read from node_modules), for a stack under
 * test. Built once per jest run, by the node and jsdom projects' global set-up
 * (content-modules.ts), after the content modules are current: embedding and subsetting the fonts
 * costs about half a second of CPU, and some forty test files start a stack with it. A test run
 * outside that set-up builds its own.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where the global set-up leaves the run's PDF (its path, in this variable, for the workers). */
export const builtPdfVariable = 'CHEAT_SHEET_PDF_FOR_TESTS';

async function buildPdf(): Promise<Uint8Array> {
  // Imported here, so a test file that reads the run's PDF never loads the PDF and font libraries.
  const [{ buildCheatSheetPdf }, { readDocumentFonts }] = await Promise.all([
    import('../../core/documents/cheat-sheet-pdf'),
    import('../../frontend/build/document-fonts'),
  ]);
  return buildCheatSheetPdf({ fonts: await readDocumentFonts(process.cwd()) });
}

export async function cheatSheetPdfForTests(): Promise<Uint8Array> {
  const built = process.env[builtPdfVariable];
  return built ? new Uint8Array(await readFile(built)) : buildPdf();
}

/**
 * Builds the run's PDF into node_modules/.cache (rewritten by every run, so never stale) and
 * tells the workers where it is.
 */
export async function buildPdfForRun(): Promise<void> {
  const file = path.join(process.cwd(), 'node_modules/.cache/first-100-days-site/cheat-sheet-for-tests.pdf');
  await mkdir(path.dirname(file), { recursive: true });
  // Written aside and renamed, so a second run in the same checkout never reads half a file.
  const written = `${file}.${process.pid}`;
  await writeFile(written, await buildPdf());
  await rename(written, file);
  process.env[builtPdfVariable] = file;
}

/** For a hook that starts a local stack with this PDF: above jest's 5 s, which a loaded machine can exceed. */
export const stackStartTimeoutMs = 30_000;
