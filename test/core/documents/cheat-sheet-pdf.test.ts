import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { book } from '../../../core/content/book';
import { cheatSheetTitle, firstWeekChecklist, weeklyReview } from '../../../core/content/cheat-sheet';
import { outlinePhases } from '../../../core/content/outline';
import { type DocumentFonts } from '../../../core/documents/brand';
import {
  buildCheatSheetPdf,
  cheatSheetContent,
  checklistHeading,
  wrapText,
} from '../../../core/documents/cheat-sheet-pdf';
import { readDocumentFonts } from '../../../frontend/build/document-fonts';
import { pdfFonts, tallestBlankBand } from '../../support/pdf-render';
import { pdfText } from '../../support/pdf-text';

const siteUrl = 'https://www.first100days.example';
let fonts: DocumentFonts;
let pdf: Uint8Array;
/** The page's text in the order it was drawn, every run of white space one space. */
let text: string;

beforeAll(async () => {
  fonts = await readDocumentFonts(process.cwd());
  pdf = await buildCheatSheetPdf({ fonts, siteUrl });
  text = (await pdfText(pdf, { raw: true })).replace(/\s+/g, ' ');
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

  test("is titled with the content's title, first on the page and in its metadata", async () => {
    expect(text.startsWith(`${cheatSheetTitle} `)).toBe(true);
    expect((await PDFDocument.load(pdf, { updateMetadata: false })).getTitle()).toBe(cheatSheetTitle);
  });

  test('names the book it comes from in its cover band', () => {
    expect(text).toContain(`${book.title}: ${book.subtitle}`);
  });

  test.each(outlinePhases.flatMap((phase) => phase.items.map((item) => [phase.title, item.area, item.content])))(
    'shows the %s %s item word for word: %s',
    (_, area, content) => {
      expect(text).toContain(content);
      expect(text).toContain(area);
    },
  );

  test('shows the 100 days as a timeline of the three phases, each with its days, in order', () => {
    const phases = outlinePhases.map((phase) => text.indexOf(`${phase.title} ${phase.days}`));
    expect(phases.every((index) => index >= 0)).toBe(true);
    expect([...phases].sort((a, b) => a - b)).toEqual(phases);
  });

  test('shows the first-week checklist, each item whole, after its heading', () => {
    const heading = text.indexOf(checklistHeading.toUpperCase());
    expect(heading).toBeGreaterThan(0);
    for (const item of firstWeekChecklist) expect(text.indexOf(item)).toBeGreaterThan(heading);
  });

  test("holds the weekly 30-minute review's questions to fill in", () => {
    expect(text).toContain(weeklyReview.heading.toUpperCase());
    for (const question of weeklyReview.questions) expect(text).toContain(question);
  });

  test("gives the site's address and the book's link at its foot", () => {
    expect(text).toContain(`More at ${siteUrl}`);
    expect(text).toContain(`The book: ${book.amazonUrl}`);
  });

  test("embeds every font it uses, the site's Source Sans 3", async () => {
    const used = await pdfFonts(pdf);
    expect(used.length).toBeGreaterThanOrEqual(2);
    for (const font of used) {
      expect(font).toMatchObject({ embedded: true });
      expect(font.name).toMatch(/^[A-Z]{6}\+SourceSans3-/);
    }
    expect(Buffer.from(pdf).toString('latin1')).not.toMatch(new RegExp(`/BaseFont\\s*/${StandardFonts.Helvetica}`));
  });

  test('uses the whole page: no blank band taller than an eighth of it', async () => {
    expect(await tallestBlankBand(pdf)).toBeLessThan(1 / 8);
  });

  test('is the same bytes every time for the same content', async () => {
    expect(Buffer.from(await buildCheatSheetPdf({ fonts, siteUrl })).equals(Buffer.from(pdf))).toBe(true);
  });

  test('fails loudly, naming the text, when its font has no glyph for a character', async () => {
    const content = { ...cheatSheetContent, checklist: ['Review cash ✓ weekly', 'Celebrate 🎉'] };

    await expect(buildCheatSheetPdf({ fonts, content })).rejects.toThrow(
      /cannot show[\s\S]*"Review cash ✓ weekly"[\s\S]*"Celebrate 🎉"/,
    );
  });

  test("takes an author's name with an apostrophe and quotes", async () => {
    const content = { ...cheatSheetContent, author: `Sam "Sully" O'Neill` };
    const named = (await pdfText(await buildCheatSheetPdf({ fonts, content }), { raw: true })).replace(/\s+/g, ' ');
    expect(named).toContain(`by Sam "Sully" O'Neill`);
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

describe('with titles and headings longer than the layout was drawn for', () => {
  const longer = ': a much longer text, as an author may write it';
  const content = {
    ...cheatSheetContent,
    title: `${cheatSheetContent.title}${longer}`,
    bookTitle: `${cheatSheetContent.bookTitle}${longer}`,
    review: { ...cheatSheetContent.review, heading: `${cheatSheetContent.review.heading}${longer}` },
    phases: cheatSheetContent.phases.map((phase) => ({ ...phase, days: `${phase.days}, the #1 stretch` })),
  };
  let longText: string;
  beforeAll(async () => {
    longText = (await pdfText(await buildCheatSheetPdf({ fonts, content }), { raw: true })).replace(/\s+/g, ' ');
  });

  // pdftotext keeps only what lies on the page: a text that ran off the edge would come back cut.
  test('draws each whole, smaller, on the page', () => {
    expect(longText).toContain(content.title);
    expect(longText).toContain(`${content.bookTitle}: ${content.bookSubtitle}`);
    expect(longText).toContain(content.review.heading.toUpperCase());
  });

  test("keeps the timeline's phases whole and in order, their lengths read from each phase's range", () => {
    const phases = content.phases.map((phase) => longText.indexOf(`${phase.title} ${phase.days}`));
    expect(phases.every((index) => index >= 0)).toBe(true);
    expect([...phases].sort((a, b) => a - b)).toEqual(phases);
  });
});

describe('npm run build:pdf', () => {
  test('writes the PDF to dist/cheat-sheet/ under its contract file name, with SITE_URL at its foot', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'cheat-sheet-build-'));
    try {
      const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
      await promisify(execFile)(tsx, [path.join(process.cwd(), 'scripts', 'build-cheat-sheet-pdf.ts')], {
        cwd: root,
        env: { ...process.env, SITE_URL: siteUrl },
      });

      const written = await readFile(path.join(root, 'dist', 'cheat-sheet', 'mpc-100-day-cheat-sheet.pdf'));
      expect(written.equals(Buffer.from(pdf))).toBe(true);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
