import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { book } from '../../../core/content/book';
import { cheatSheetTitle, firstWeekChecklist } from '../../../core/content/cheat-sheet';
import { outlinePhases } from '../../../core/content/outline';
import {
  buildCheatSheetPdf,
  cheatSheetContent,
  checklistHeading,
  wrapText,
} from '../../../core/documents/cheat-sheet-pdf';
import { contentStreams, drawnTextLines } from '../../support/pdf-content';

let pdf: Uint8Array;
let lines: string[];

beforeAll(async () => {
  pdf = await buildCheatSheetPdf();
  lines = drawnTextLines(pdf);
});

describe('the cheat-sheet PDF', () => {
  test('is a PDF file', () => {
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Buffer.from(pdf.subarray(-6)).toString('latin1')).toMatch(/%%EOF\s*$/);
  });

  test('is one A4 page', async () => {
    const document = await PDFDocument.load(pdf);

    expect(document.getPageCount()).toBe(1);
    const { width, height } = document.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
  });

  test("is titled with the content's title, on the page and in its metadata", async () => {
    expect(lines[0]).toBe(cheatSheetTitle);
    expect((await PDFDocument.load(pdf, { updateMetadata: false })).getTitle()).toBe(cheatSheetTitle);
  });

  test('names the book it comes from', () => {
    expect(lines.join(' ')).toContain(`${book.title}: ${book.subtitle}`);
  });

  test.each(outlinePhases.flatMap((phase) => phase.items.map((item) => [phase.title, item.area, item.content])))(
    'shows the %s %s item word for word on one line: %s',
    (_, area, content) => {
      expect(lines).toContain(content);
      expect(lines[lines.indexOf(content) - 1]).toBe(area);
    },
  );

  test('shows each phase with its days, in order', () => {
    const phaseLines = outlinePhases.map((phase) => lines.indexOf(phase.title));

    expect(phaseLines.every((index) => index >= 0)).toBe(true);
    expect([...phaseLines].sort((a, b) => a - b)).toEqual(phaseLines);
    for (const phase of outlinePhases) expect(lines[lines.indexOf(phase.title) + 1]).toBe(phase.days);
    expect(lines).toContain('Days 1–30');
  });

  test('shows the first-week checklist, each item whole, after its heading', () => {
    const heading = lines.indexOf(checklistHeading);

    expect(heading).toBeGreaterThan(0);
    expect(lines.slice(heading + 1, heading + 1 + firstWeekChecklist.length)).toEqual([...firstWeekChecklist]);
  });

  test('uses only the standard Helvetica fonts, so no font file is embedded', () => {
    const source = Buffer.from(pdf).toString('latin1');
    const fonts = [...source.matchAll(/\/BaseFont\s*\/([\w-]+)/g)].map(([, name]) => name);

    expect(new Set(fonts)).toEqual(
      new Set([StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.HelveticaOblique]),
    );
    expect(source).not.toMatch(/\/FontFile/);
  });

  test('has text drawn as text operators in its content stream', () => {
    expect(contentStreams(pdf).some((stream) => /BT[\s\S]*Tj[\s\S]*ET/.test(stream))).toBe(true);
  });

  test('is the same bytes every time for the same content', async () => {
    expect(Buffer.from(await buildCheatSheetPdf()).equals(Buffer.from(pdf))).toBe(true);
  });

  test('fails loudly, naming the text, when a string cannot be encoded by the standard fonts', async () => {
    const content = { ...cheatSheetContent, checklist: ['Review cash → weekly', 'Celebrate 🎉'] };

    await expect(buildCheatSheetPdf(content)).rejects.toThrow(
      /cannot encode[\s\S]*"Review cash → weekly"[\s\S]*"Celebrate 🎉"/,
    );
  });

  test('wraps text that is wider than the line, at spaces', async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);

    const wrapped = wrapText('one two three four five six seven', font, 12, 60);

    expect(wrapped.length).toBeGreaterThan(1);
    expect(wrapped.join(' ')).toBe('one two three four five six seven');
    for (const line of wrapped) expect(font.widthOfTextAtSize(line, 12)).toBeLessThanOrEqual(60);
  });
});

describe('npm run build:pdf', () => {
  test('writes the PDF to dist/cheat-sheet/ under its contract file name', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'cheat-sheet-build-'));
    try {
      const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
      await promisify(execFile)(tsx, [path.join(process.cwd(), 'scripts', 'build-cheat-sheet-pdf.ts')], { cwd: root });

      const written = await readFile(path.join(root, 'dist', 'cheat-sheet', 'mpc-100-day-cheat-sheet.pdf'));
      expect(written.equals(Buffer.from(pdf))).toBe(true);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
