/**
 * What a PDF embeds and how its page looks, by poppler's tools (Debian's poppler-utils; .ci/run
 * installs it): the fonts as pdffonts lists them, and the page rendered by pdftoppm in grey.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function withPdfFile<T>(pdf: Uint8Array, use: (file: string, folder: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(path.join(tmpdir(), 'pdf-render-'));
  try {
    const file = path.join(folder, 'document.pdf');
    await writeFile(file, pdf);
    return await use(file, folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export interface PdfFont {
  readonly name: string;
  readonly type: string;
  readonly embedded: boolean;
}

export function pdfFonts(pdf: Uint8Array): Promise<PdfFont[]> {
  return withPdfFile(pdf, async (file) => {
    const { stdout } = await run('pdffonts', [file]);
    // After two header lines: name, type (one or two words), encoding, then emb sub uni yes/no.
    return stdout
      .trim()
      .split('\n')
      .slice(2)
      .map((line) => {
        const match = /^(\S+)\s+(.+?)\s{2,}\S+\s+(yes|no)\s+(yes|no)\s+(yes|no)/.exec(line);
        if (!match) throw new Error(`Unexpected pdffonts line: ${line}`);
        return { name: match[1]!, type: match[2]!, embedded: match[3] === 'yes' };
      });
  });
}

/** The first page in grey (PGM), `dpi` dots per inch: its size and one byte per pixel. */
export function renderFirstPage(pdf: Uint8Array, dpi: number) {
  return withPdfFile(pdf, async (file, folder) => {
    await run('pdftoppm', [
      '-gray',
      '-r',
      String(dpi),
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      file,
      path.join(folder, 'page'),
    ]);
    const pgm = await readFile(path.join(folder, 'page.pgm'));
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'));
    if (!header) throw new Error('pdftoppm wrote no 8-bit PGM');
    const width = Number(header[1]);
    const height = Number(header[2]);
    return { width, height, pixels: pgm.subarray(header[0].length) };
  });
}

/** The tallest run of rows with no mark on them (every pixel near white), as a share of the page's height. */
export async function tallestBlankBand(pdf: Uint8Array): Promise<number> {
  const { width, height, pixels } = await renderFirstPage(pdf, 50);
  let tallest = 0;
  let run = 0;
  for (let row = 0; row < height; row += 1) {
    const blank = pixels.subarray(row * width, (row + 1) * width).every((grey) => grey >= 245);
    run = blank ? run + 1 : 0;
    tallest = Math.max(tallest, run);
  }
  return tallest / height;
}
