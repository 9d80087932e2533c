/**
 * The cheat-sheet PDF: one A4 page built from the same content as the page. A navy cover band
 * with the title and the book; the 100 days as a timeline of the three phases; the nine items of
 * the outline by area, each area in the site's colour; the weekly 30-minute review as a block to
 * fill in; the first-week checklist; the site's address and the book's link at the foot. The
 * page's font (Source Sans 3) is embedded, subset to the glyphs used; a character it has no glyph
 * for fails the build instead of printing a blank box.
 */

import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import { author } from '../content/author';
import { book } from '../content/book';
import { cheatSheetTitle, firstWeekChecklist, weeklyReview } from '../content/cheat-sheet';
import { outlinePhases, type Area, type OutlinePhase } from '../content/outline';
import { areaColours, brandColours, type DocumentFonts } from './brand';

export interface CheatSheetContent {
  readonly title: string;
  readonly bookTitle: string;
  readonly bookSubtitle: string;
  readonly author: string;
  readonly phases: readonly OutlinePhase[];
  readonly review: { readonly heading: string; readonly questions: readonly string[] };
  readonly checklist: readonly string[];
  readonly bookUrl: string;
}

export const cheatSheetContent: CheatSheetContent = {
  title: cheatSheetTitle,
  bookTitle: book.title,
  bookSubtitle: book.subtitle,
  author: author.name,
  phases: outlinePhases,
  review: weeklyReview,
  checklist: firstWeekChecklist,
  bookUrl: book.amazonUrl,
};

export interface CheatSheetOptions {
  readonly fonts: DocumentFonts;
  readonly content?: CheatSheetContent;
  /** The site's address (`SITE_URL`), printed at the foot; without one, only the book's link is. */
  readonly siteUrl?: string | null;
}

export const timelineHeading = 'Your first 100 days';
export const areasHeading = 'Three areas, three phases';
export const checklistHeading = 'Your First-Week Checklist';
export const notesHeading = 'Notes';

// A fixed date makes the same content produce the same bytes.
const fixedDate = new Date('2025-01-01T00:00:00Z');

const a4 = { width: 595.28, height: 841.89 } as const;
const margin = 36;
const contentWidth = a4.width - 2 * margin;
const white = rgb(1, 1, 1);

const colour = (hex: string): RGB =>
  rgb(...([1, 3, 5].map((index) => parseInt(hex.slice(index, index + 2), 16) / 255) as [number, number, number]));
const navy = colour(brandColours.navy);
const gold = colour(brandColours.gold);
const ink = colour(brandColours.ink);
const tint = colour(brandColours.tint);
const line = colour(brandColours.line);
const areaColour = (area: Area) => colour(areaColours[area]);

interface Fonts {
  readonly regular: PDFFont;
  readonly semibold: PDFFont;
  readonly bold: PDFFont;
}

/** Throws one error listing every string with a character the embedded font has no glyph for. */
function assertDrawable(fontFile: Uint8Array, texts: readonly string[]): void {
  const font = fontkit.create(fontFile);
  const problems = texts.filter((text) =>
    [...text].some((character) => !/\s/.test(character) && !font.hasGlyphForCodePoint(character.codePointAt(0)!)),
  );
  if (problems.length > 0) {
    throw new Error(
      `The cheat sheet has text its font (Source Sans 3, Latin) cannot show:\n${problems.map((text) => `"${text}"`).join('\n')}`,
    );
  }
}

/** Greedy word wrap; a single word wider than the line is left whole rather than split. */
export function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && font.widthOfTextAtSize(candidate, size) > maxWidth) {
      lines.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current) lines.push(current);
  return lines;
}

interface TextBlock {
  readonly text: string;
  readonly font: PDFFont;
  readonly size: number;
  readonly color: RGB;
  readonly lineHeight?: number;
}

/** Draws wrapped text with its first baseline at `y`; returns the baseline after the block. */
function drawWrapped(page: PDFPage, block: TextBlock, x: number, y: number, maxWidth: number): number {
  const lineHeight = block.lineHeight ?? block.size * 1.3;
  let baseline = y;
  for (const text of wrapText(block.text, block.font, block.size, maxWidth)) {
    page.drawText(text, { x, y: baseline, font: block.font, size: block.size, color: block.color });
    baseline -= lineHeight;
  }
  return baseline;
}

/**
 * Draws one line of the author's text at its size, or smaller when it would not fit `maxWidth`:
 * a longer title or heading than the layout was drawn for stays whole and inside its box, instead
 * of running off the page or under the next box (which drops it from the page, silently).
 */
function drawFitted(page: PDFPage, block: TextBlock, x: number, y: number, maxWidth: number): void {
  const width = block.font.widthOfTextAtSize(block.text, block.size);
  const size = width > maxWidth ? (block.size * maxWidth) / width : block.size;
  page.drawText(block.text, { x, y, font: block.font, size, color: block.color });
}

const wrappedLines = (block: TextBlock, maxWidth: number) =>
  wrapText(block.text, block.font, block.size, maxWidth).length;

function drawHeading(page: PDFPage, fonts: Fonts, text: string, y: number): number {
  page.drawText(text.toUpperCase(), { x: margin, y, font: fonts.bold, size: 10.5, color: navy });
  page.drawRectangle({ x: margin, y: y - 6, width: 28, height: 2, color: gold });
  return y - 22;
}

/** The navy band across the top: the title, the book and its author. Returns the y below it. */
function drawCoverBand(page: PDFPage, fonts: Fonts, content: CheatSheetContent): number {
  const height = 118;
  const bottom = a4.height - height;
  page.drawRectangle({ x: 0, y: bottom, width: a4.width, height, color: navy });
  page.drawRectangle({ x: 0, y: bottom, width: a4.width, height: 4, color: gold });
  const band = (text: string, font: PDFFont, size: number, color: RGB, y: number) =>
    drawFitted(page, { text, font, size, color }, margin, y, contentWidth);
  band(content.title, fonts.bold, 26, white, a4.height - 52);
  band(`${content.bookTitle}: ${content.bookSubtitle}`, fonts.semibold, 11.5, gold, a4.height - 76);
  band(`by ${content.author}`, fonts.regular, 10.5, white, a4.height - 94);
  return bottom - 30;
}

/** Days 1 to 100 as one bar, a segment per phase in proportion to its days. */
function drawTimeline(page: PDFPage, fonts: Fonts, content: CheatSheetContent, top: number): number {
  let y = drawHeading(page, fonts, timelineHeading, top);
  // A phase's last day: the end of its first range ("Days 31–60"), else its last number.
  const ends = content.phases.map((phase) =>
    Number(/(\d+)\s*[–-]\s*(\d+)/.exec(phase.days)?.[2] ?? /(\d+)\D*$/.exec(phase.days)?.[1] ?? 0),
  );
  const total = Math.max(...ends, 1);
  const shades = [navy, colour('#1d3d5e'), colour('#2f5780')];
  let start = 0;
  const barHeight = 30;
  y -= barHeight - 8;
  content.phases.forEach((phase, index) => {
    const end = ends[index] ?? total;
    const x = margin + (start / total) * contentWidth;
    const width = ((end - start) / total) * contentWidth;
    page.drawRectangle({ x, y, width: width - 2, height: barHeight, color: shades[index % shades.length] });
    const inside = width - 18;
    drawFitted(page, { text: phase.title, font: fonts.semibold, size: 10.5, color: white }, x + 8, y + 17, inside);
    drawFitted(page, { text: phase.days, font: fonts.regular, size: 8.5, color: gold }, x + 8, y + 6, inside);
    start = end;
  });
  return y - 28;
}

/** One row per area in its colour, one column per phase: the outline's nine items. */
function drawAreas(page: PDFPage, fonts: Fonts, content: CheatSheetContent, top: number): number {
  let y = drawHeading(page, fonts, areasHeading, top);
  const labelWidth = 84;
  const columnGap = 8;
  const columnWidth = (contentWidth - labelWidth - columnGap * content.phases.length) / content.phases.length;
  const size = 10;
  const areas = content.phases[0]?.items.map((item) => item.area) ?? [];
  for (const area of areas) {
    const cells = content.phases.map((phase) => phase.items.find((item) => item.area === area)?.content ?? '');
    const lines = Math.max(
      ...cells.map((text) => wrappedLines({ text, font: fonts.regular, size, color: ink }, columnWidth - 16)),
    );
    const rowHeight = 16 + lines * size * 1.3;
    y -= rowHeight;
    page.drawRectangle({ x: margin, y, width: labelWidth, height: rowHeight, color: areaColour(area) });
    page.drawText(area, { x: margin + 10, y: y + rowHeight / 2 - 4, font: fonts.bold, size: 11.5, color: white });
    cells.forEach((text, index) => {
      const x = margin + labelWidth + columnGap + index * (columnWidth + columnGap);
      page.drawRectangle({ x, y, width: columnWidth, height: rowHeight, color: tint });
      page.drawRectangle({ x, y, width: 3, height: rowHeight, color: areaColour(area) });
      drawWrapped(page, { text, font: fonts.regular, size, color: ink }, x + 10, y + rowHeight - 16, columnWidth - 16);
    });
    y -= 6;
  }
  return y - 24;
}

/** The first-week checklist (left) and the weekly review to fill in (right), side by side. */
function drawChecklistAndReview(page: PDFPage, fonts: Fonts, content: CheatSheetContent, top: number, bottom: number) {
  const gap = 20;
  const columnWidth = (contentWidth - gap) / 2;
  const boxSize = 9;

  let y = drawHeading(page, fonts, checklistHeading, top);
  for (const item of content.checklist) {
    page.drawRectangle({ x: margin, y: y - 1, width: boxSize, height: boxSize, borderColor: navy, borderWidth: 1 });
    const block = { text: item, font: fonts.regular, size: 10.5, color: ink, lineHeight: 13 };
    y = drawWrapped(page, block, margin + 18, y, columnWidth - 20) - 9;
  }
  // The rest of the column: lines for the reader's own notes, down to the foot.
  y -= 8;
  page.drawText(notesHeading.toUpperCase(), { x: margin, y, font: fonts.bold, size: 9, color: navy });
  for (let lineY = y - 20; lineY > bottom + 10; lineY -= 18) {
    page.drawLine({
      start: { x: margin, y: lineY },
      end: { x: margin + columnWidth, y: lineY },
      thickness: 0.6,
      color: line,
    });
  }

  // The review: a heading, and per area its question with lines to write on, filling the column.
  const x = margin + columnWidth + gap;
  const reviewHeading = { text: content.review.heading.toUpperCase(), font: fonts.bold, size: 10.5, color: navy };
  drawFitted(page, reviewHeading, x, top, columnWidth);
  page.drawRectangle({ x, y: top - 6, width: 28, height: 2, color: gold });
  const questionsTop = top - 22;
  const perQuestion = (questionsTop - bottom) / Math.max(content.review.questions.length, 1);
  const areas = content.phases[0]?.items.map((item) => item.area) ?? [];
  content.review.questions.forEach((question, index) => {
    const blockTop = questionsTop - index * perQuestion;
    const area = areas[index] ?? 'Money';
    page.drawRectangle({
      x,
      y: blockTop - perQuestion + 10,
      width: 3,
      height: perQuestion - 10,
      color: areaColour(area),
    });
    const afterQuestion = drawWrapped(
      page,
      { text: question, font: fonts.semibold, size: 10, color: ink, lineHeight: 12.5 },
      x + 10,
      blockTop - 8,
      columnWidth - 12,
    );
    for (let lineY = afterQuestion - 10; lineY > blockTop - perQuestion + 14; lineY -= 18) {
      page.drawLine({
        start: { x: x + 10, y: lineY },
        end: { x: x + columnWidth, y: lineY },
        thickness: 0.6,
        color: line,
      });
    }
  });
}

/** The foot: the site's address (when the build has it) and the book's link, each on a line. */
function drawFoot(page: PDFPage, fonts: Fonts, content: CheatSheetContent, siteUrl: string | null): void {
  const height = 52;
  page.drawRectangle({ x: 0, y: 0, width: a4.width, height, color: navy });
  page.drawRectangle({ x: 0, y: height, width: a4.width, height: 3, color: gold });
  const first = siteUrl ? `More at ${siteUrl}` : `${content.bookTitle}, by ${content.author}`;
  drawFitted(page, { text: first, font: fonts.semibold, size: 10.5, color: white }, margin, 30, contentWidth);
  drawWrapped(
    page,
    { text: `The book: ${content.bookUrl}`, font: fonts.regular, size: 8, color: gold, lineHeight: 9 },
    margin,
    16,
    contentWidth,
  );
}

export async function buildCheatSheetPdf({
  fonts: fontFiles,
  content = cheatSheetContent,
  siteUrl = null,
}: CheatSheetOptions): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const fonts: Fonts = {
    // Named as PDF subsets are (a six-letter tag, '+', the font): a fixed tag keeps the bytes stable.
    regular: await pdf.embedFont(fontFiles.regular, { subset: true, customName: 'MPCREG+SourceSans3-Regular' }),
    semibold: await pdf.embedFont(fontFiles.semibold, { subset: true, customName: 'MPCSEM+SourceSans3-SemiBold' }),
    bold: await pdf.embedFont(fontFiles.bold, { subset: true, customName: 'MPCBLD+SourceSans3-Bold' }),
  };
  assertDrawable(fontFiles.regular, [
    content.title,
    content.bookTitle,
    content.bookSubtitle,
    content.author,
    content.review.heading,
    ...content.review.questions,
    ...content.phases.flatMap((phase) => [phase.title, phase.days, ...phase.items.flatMap((i) => [i.area, i.content])]),
    ...content.checklist,
    content.bookUrl,
    siteUrl ?? '',
  ]);

  pdf.setTitle(content.title, { showInWindowTitleBar: true });
  pdf.setAuthor(content.author);
  pdf.setSubject(`${content.bookTitle}: ${content.bookSubtitle}`);
  pdf.setKeywords(['MPC Framework', 'Money', 'People', 'Capacity', 'first 100 days']);
  pdf.setCreator(content.bookTitle);
  pdf.setProducer('pdf-lib');
  pdf.setLanguage('en-US');
  pdf.setCreationDate(fixedDate);
  pdf.setModificationDate(fixedDate);

  const page = pdf.addPage([a4.width, a4.height]);
  let y = drawCoverBand(page, fonts, content);
  y = drawTimeline(page, fonts, content, y);
  y = drawAreas(page, fonts, content, y);
  drawChecklistAndReview(page, fonts, content, y, 72);
  drawFoot(page, fonts, content, siteUrl);

  return pdf.save({ useObjectStreams: false });
}
