/** Reads the font files the cheat-sheet PDF embeds (core/documents/brand.ts) from the repository's node_modules. */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { documentFontFiles, type DocumentFonts } from '../../core/documents/brand';

/** `root`: the repository, whose node_modules holds @fontsource/source-sans-3. */
export async function readDocumentFonts(root: string): Promise<DocumentFonts> {
  const read = (file: string) => readFile(path.join(root, 'node_modules', file));
  const [regular, semibold, bold] = await Promise.all([
    read(documentFontFiles.regular),
    read(documentFontFiles.semibold),
    read(documentFontFiles.bold),
  ]);
  return { regular, semibold, bold };
}
