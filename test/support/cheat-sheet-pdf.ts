/** The cheat-sheet PDF as the build makes it (its fonts read from node_modules), for a stack under test. */
import { buildCheatSheetPdf } from '../../core/documents/cheat-sheet-pdf';
import { readDocumentFonts } from '../../frontend/build/document-fonts';

export async function cheatSheetPdfForTests(): Promise<Uint8Array> {
  return buildCheatSheetPdf({ fonts: await readDocumentFonts(process.cwd()) });
}

/** For a hook that starts a local stack with this PDF: above jest's 5 s, which a loaded machine can exceed. */
export const stackStartTimeoutMs = 30_000;
