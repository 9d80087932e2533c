/**
 * What to type instead, for the YAML mistakes an apostrophe, a colon, a `#` or a leading quote
 * cause in a one-line text: the line as the author wrote it, rewritten with the whole text in
 * quotes (double ones, or single ones with each apostrophe doubled when the text holds a `"`).
 * content-file.ts names the file, line and field and shows this line; a mistake this cannot mend
 * keeps YAML's own message.
 */

import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';

/** `text` as a YAML quoted scalar: double quotes, or single ones (an apostrophe doubled) if it holds `"` or `\`. */
export function quoted(text: string): string {
  return /["\\]/.test(text) ? `'${text.replace(/'/g, "''")}'` : `"${text}"`;
}

/** A line holding a text: its indent and `key: ` or `- ` (the prefix), then the text as typed. */
const textLine = /^(\s*(?:- +)?(?:[A-Za-z][\w-]*: +)?|\s*- +)(\S.*?)\s*$/;

export interface LineFix {
  /** 1-based. */
  readonly line: number;
  /** Why YAML could not read it as meant, in plain words. */
  readonly reason: string;
  /** The line as it should be typed. */
  readonly corrected: string;
}

/** What the author meant the text of a one-line value to be, and why YAML read it otherwise. */
function intendedText(value: string): { readonly text: string; readonly reason: string } | undefined {
  const first = value[0];
  if (first === "'" || first === '"') {
    const closes = value.length > 1 && value.endsWith(first);
    if (!closes) {
      return {
        text: value,
        reason: `the text starts with a quote (${first}), so YAML expects it to end with one`,
      };
    }
    const inner = value.slice(1, -1);
    if (first === "'" && /(^|[^'])'([^']|$)/.test(inner)) {
      return {
        text: inner.replace(/''/g, "'"),
        reason: "inside single quotes an apostrophe ends the text (write it twice: '')",
      };
    }
    if (first === '"' && /(^|[^\\])"/.test(inner)) {
      return { text: inner, reason: 'inside double quotes a " ends the text' };
    }
    return undefined;
  }
  if (/: /.test(value) || value.endsWith(':')) {
    return { text: value, reason: 'a colon followed by a space makes YAML read a new field' };
  }
  if (/ #/.test(value)) {
    return { text: value, reason: 'YAML reads " #" and what follows as a comment' };
  }
  return undefined;
}

/** The field path (`bio[0]`) of the text starting on `line` of `document`, or '' when none does. */
function fieldOnLine(document: Document, lines: LineCounter, line: number): string {
  let found = '';
  const walk = (node: unknown, path: string): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '?';
        walk(pair.value, path ? `${path}.${key}` : key);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item, `${path}[${index}]`));
    } else if (isScalar(node) && node.range && lines.linePos(node.range[0]).line === line) {
      found = path;
    }
  };
  walk(document.contents, '');
  return found;
}

/**
 * The fix for a YAML mistake on `line` of `source` (1-based): the corrected line, when rewriting
 * that one line makes the whole file readable, with the field it holds; undefined otherwise.
 */
export function fixLine(source: string, line: number): (LineFix & { readonly field: string }) | undefined {
  const lines = source.split('\n');
  // YAML reports some mistakes on the line after (an unclosed quote): try that line and the one before.
  for (const candidate of [line, line - 1]) {
    const typed = lines[candidate - 1];
    if (typed === undefined) continue;
    const match = textLine.exec(typed);
    if (!match || /^\s*#/.test(typed)) continue;
    const [, prefix, value] = match;
    const intended = intendedText(value);
    if (!intended) continue;
    const corrected = `${prefix}${quoted(intended.text)}`;
    const mended = [...lines.slice(0, candidate - 1), corrected, ...lines.slice(candidate)].join('\n');
    const counter = new LineCounter();
    const document = parseDocument(mended, { lineCounter: counter, uniqueKeys: true });
    if (document.errors.length > 0) continue;
    return { line: candidate, reason: intended.reason, corrected, field: fieldOnLine(document, counter, candidate) };
  }
  return undefined;
}

/** The corrected line for a text YAML would cut silently (` #`): `prefixLine` is the line the text starts on. */
export function quotedLine(prefixLine: string, column: number, text: string): string {
  return `${prefixLine.slice(0, column)}${quoted(text)}`;
}
