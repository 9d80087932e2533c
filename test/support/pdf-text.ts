/**
 * The text a reader can select in a PDF, extracted by poppler's pdftotext (Debian's
 * poppler-utils; .ci/run installs it). Proves the text is real text, not drawn shapes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `raw`: in the order it was drawn (each block whole) rather than laid out as on the page. */
export async function pdfText(pdf: Uint8Array, { raw = false }: { readonly raw?: boolean } = {}): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'pdf-text-'));
  try {
    const file = path.join(folder, 'document.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', [raw ? '-raw' : '-layout', '-enc', 'UTF-8', file, '-']);
    return stdout.replace(/[ \t]+/g, ' ');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
