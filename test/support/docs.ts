/**
 * The one way tests read the documentation: the README and the pages of docs/. Tests that check
 * what a page says take its text or one of its sections from here, so a page can be reorganized
 * without every test cutting it up its own way.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** jest runs from the repository's root. */
const repoRoot = process.cwd();

/** A page's path from the root: `README.md` as it is, any other name in `docs/`. */
export function docPath(name: string): string {
  return name === 'README.md' || name.startsWith('docs/') ? name : `docs/${name}`;
}

/** The text of a page: `readDoc('README.md')`, or a page of docs/ by its name, `readDoc('audit.md')`. */
export function readDoc(name: string): string {
  return readFileSync(path.join(repoRoot, docPath(name)), 'utf8');
}

/** Every Markdown page: the README, then each `docs/*.md`, as paths from the root. */
export function docPaths(): string[] {
  const pages = readdirSync(path.join(repoRoot, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `docs/${file}`);
  return ['README.md', ...pages];
}

/** Whether a path from the root names a file or folder that exists. */
export function existsInRepository(relativePath: string): boolean {
  return existsSync(path.join(repoRoot, relativePath));
}

const fence = /^\s*(```|~~~)/;
const headingLine = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

/** The lines of a page outside fenced code blocks, numbered from 1 as an editor shows them. */
export function proseLines(doc: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = [];
  let inCode = false;
  doc.split('\n').forEach((text, index) => {
    if (fence.test(text)) {
      inCode = !inCode;
      return;
    }
    if (!inCode) lines.push({ line: index + 1, text });
  });
  return lines;
}

/** The headings of a page (outside code blocks), with their level and their text without the `#`s. */
export function headings(doc: string): { level: number; text: string; line: number }[] {
  return proseLines(doc).flatMap(({ line, text }) => {
    const match = headingLine.exec(text);
    return match ? [{ level: match[1].length, text: match[2], line }] : [];
  });
}

/**
 * The section under a heading (its text without the `#`s, e.g. `section(doc, 'Quick start')`):
 * the heading and everything up to the next heading of the same level or above. Throws when the
 * page has no such heading, so a test that reads a moved section fails saying which.
 */
export function section(doc: string, heading: string): string {
  const all = headings(doc);
  const start = all.find((candidate) => candidate.text === heading);
  if (!start) throw new Error(`no heading '${heading}' in this page`);
  const end = all.find((candidate) => candidate.line > start.line && candidate.level <= start.level);
  const lines = doc.split('\n');
  return lines.slice(start.line - 1, end ? end.line - 1 : lines.length).join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page's headings give, a repeated one numbered `-1`, `-2`… as GitHub does. */
export function anchors(doc: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const { text } of headings(doc)) {
    const base = anchorOf(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The targets of a page's inline links and images outside code (blocks and `spans`), in order. */
export function linkTargets(doc: string): string[] {
  const link = /!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
  return proseLines(doc).flatMap(({ text }) =>
    [...text.replace(/`[^`]*`/g, '').matchAll(link)].map((match) => match[1]),
  );
}

/**
 * Fails naming the page and the line to update unless `expected` is in it, a phrase that may wrap
 * lines (line breaks and indentation read as single spaces): the line holding the words before its
 * first figure, or the page alone when no line does.
 */
export function expectDocText(page: string, expected: string): void {
  const text = readDoc(page);
  if (text.replace(/\s+/g, ' ').includes(expected)) return;
  const stem = expected.split(/\d/)[0].trim().split(' ').slice(0, 6).join(' ');
  const lineNumber = stem ? text.split('\n').findIndex((line) => line.includes(stem)) + 1 : 0;
  throw new Error(
    `docs/${page}${lineNumber > 0 ? `, line ${lineNumber},` : ''} disagrees with the templates: write "${expected}"`,
  );
}
