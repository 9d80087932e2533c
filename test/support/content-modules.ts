/**
 * The node and jsdom projects' global setup: core/content/generated/ is brought up to date with
 * content/*.yaml first, so a test always reads the copy the author wrote (`npm run content`); then
 * the run's cheat-sheet PDF is built from that copy, once (cheat-sheet-pdf.ts).
 */
import { writeContentModules } from '../../frontend/build/content-modules';

export default async function updateContentModules(): Promise<void> {
  await writeContentModules(process.cwd());
  // Imported after the content modules are written: the PDF's module reads them.
  const { buildPdfForRun } = await import('./cheat-sheet-pdf');
  await buildPdfForRun();
}
