/**
 * The cheat-sheet PDF, generated from the same content modules as the page's learning outline:
 * one A4 page with the title, the three phases × three areas and the first-week checklist.
 * Standard fonts keep the text selectable and the file small; their WinAnsi encoding is checked
 * for every string up front, so a character it cannot show fails the build instead of the page.
 */

import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import { author } from '../content/author';
import { book } from '../content/book';
import { cheatSheetTitle, firstWeekChecklist } from '../content/cheat-sheet';
import { outlinePhases, type OutlinePhase } from '../content/outline';

export interface CheatSheetContent {
  readonly title: string;
  readonly bookTitle: string;
  readonly bookSubtitle: string;
  readonly author: string;
  readonly phases: readonly OutlinePhase[];
  readonly checklist: readonly string[];
}

export const cheatSheetContent: CheatSheetContent = {
  title: cheatSheetTitle,
  bookTitle: book.title,
  bookSubtitle: book.subtitle,
  author: author.name,
  phases: outlinePhases,
  checklist: firstWeekChecklist,
};

export const frameworkHeading = 'Three phases, three areas: Money, People, Capacity';
export const checklistHeading = 'Your First-Week Checklist';

// A fixed date makes the same content produce the same bytes.
const fixedDate = new Date('2025-01-01T00:00:00Z');

const a4 = { width: 595.28, height: 841.89 } as const;
const margin = 48;
const ink = rgb(0.12, 0.16, 0.22);
const muted = rgb(0.35, 0.39, 0.45);
const accent = rgb(0.11, 0.3, 0.55);
const rule = rgb(0.8, 0.83, 0.87);

interface Fonts {
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  readonly italic: PDFFont;
}

/** Throws one error listing every string a standard font cannot encode. */
function assertEncodable(fonts: Fonts, texts: readonly string[]): void {
  const problems: string[] = [];
  for (const text of texts) {
    for (const font of [fonts.regular, fonts.bold, fonts.italic]) {
      try {
        font.encodeText(text);
      } catch (error) {
        problems.push(`"${text}": ${(error as Error).message}`);
        break;
      }
    }
  }
  if (problems.length > 0) {
    throw new Error(`The cheat sheet has text the PDF's standard fonts cannot encode:\n${problems.join('\n')}`);
  }
}

/** Greedy word wrap; a single word wider than the line is left whole rather than split. */
export function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

interface TextBlock {
  readonly text: string;
  readonly font: PDFFont;
  readonly size: number;
  readonly color: RGB;
  readonly lineHeight?: number;
}

/** Draws wrapped text with its first baseline at `y`; returns the y below the block. */
function drawWrapped(page: PDFPage, block: TextBlock, x: number, y: number, maxWidth: number): number {
  const lineHeight = block.lineHeight ?? block.size * 1.3;
  let baseline = y;
  for (const line of wrapText(block.text, block.font, block.size, maxWidth)) {
    page.drawText(line, { x, y: baseline, font: block.font, size: block.size, color: block.color });
    baseline -= lineHeight;
  }
  return baseline;
}

function wrappedHeight(block: TextBlock, maxWidth: number): number {
  return wrapText(block.text, block.font, block.size, maxWidth).length * (block.lineHeight ?? block.size * 1.3);
}

export async function buildCheatSheetPdf(content: CheatSheetContent = cheatSheetContent): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const fonts: Fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
    italic: await pdf.embedFont(StandardFonts.HelveticaOblique),
  };
  const footer = `From ${content.bookTitle}: ${content.bookSubtitle}, by ${content.author}.`;
  assertEncodable(fonts, [
    content.title,
    content.bookTitle,
    content.bookSubtitle,
    frameworkHeading,
    checklistHeading,
    footer,
    ...content.phases.flatMap((phase) => [phase.title, phase.days, ...phase.items.flatMap((i) => [i.area, i.content])]),
    ...content.checklist,
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
  const contentWidth = a4.width - 2 * margin;
  let y = a4.height - margin - 24;

  // Title and the book it belongs to.
  page.drawText(content.title, { x: margin, y, font: fonts.bold, size: 26, color: accent });
  y -= 24;
  y = drawWrapped(
    page,
    { text: `${content.bookTitle}: ${content.bookSubtitle}`, font: fonts.italic, size: 12, color: muted },
    margin,
    y,
    contentWidth,
  );
  y -= 6;
  page.drawLine({ start: { x: margin, y }, end: { x: a4.width - margin, y }, thickness: 1, color: rule });
  y -= 28;

  // The framework: one band per phase, one line per area, so each item reads (and copies) whole.
  page.drawText(frameworkHeading, { x: margin, y, font: fonts.bold, size: 15, color: ink });
  y -= 14;
  const bandHeight = 24;
  const rowHeight = 22;
  const areaX = margin + 12;
  const itemX = margin + 92;
  const itemWidth = a4.width - margin - itemX;
  for (const phase of content.phases) {
    y -= 10 + bandHeight;
    page.drawRectangle({ x: margin, y, width: contentWidth, height: bandHeight, color: accent });
    page.drawText(phase.title, { x: areaX, y: y + 8, font: fonts.bold, size: 12.5, color: rgb(1, 1, 1) });
    const daysWidth = fonts.regular.widthOfTextAtSize(phase.days, 11);
    page.drawText(phase.days, {
      x: a4.width - margin - 12 - daysWidth,
      y: y + 8,
      font: fonts.regular,
      size: 11,
      color: rgb(1, 1, 1),
    });
    for (const item of phase.items) {
      const body = { text: item.content, font: fonts.regular, size: 11.5, color: ink };
      // Baseline about 15 pt under the row's top centres one line of 11.5 pt text in the row.
      const baseline = y - 15;
      page.drawText(item.area, { x: areaX, y: baseline, font: fonts.bold, size: 11.5, color: accent });
      drawWrapped(page, body, itemX, baseline, itemWidth);
      y -= Math.max(rowHeight, wrappedHeight(body, itemWidth) + 7);
      page.drawLine({ start: { x: margin, y }, end: { x: a4.width - margin, y }, thickness: 0.5, color: rule });
    }
  }
  y -= 34;

  // The first-week checklist, each item with a box to tick on paper.
  page.drawText(checklistHeading, { x: margin, y, font: fonts.bold, size: 15, color: ink });
  y -= 24;
  const boxSize = 10;
  const textX = margin + boxSize + 10;
  for (const item of content.checklist) {
    page.drawRectangle({ x: margin, y: y - 1, width: boxSize, height: boxSize, borderColor: accent, borderWidth: 1 });
    y = drawWrapped(
      page,
      { text: item, font: fonts.regular, size: 11.5, color: ink },
      textX,
      y,
      contentWidth - (textX - margin),
    );
    y -= 8;
  }

  // Footer: where the framework comes from.
  drawWrapped(page, { text: footer, font: fonts.italic, size: 9, color: muted }, margin, margin, contentWidth);

  return pdf.save({ useObjectStreams: false });
}
