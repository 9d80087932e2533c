/**
 * Reads one content file: YAML in, checked data out, or an error naming the file, the line and
 * the field of every mistake. Pure (text in, data out), so the build step, its tests and the
 * dev server share it; `npm run content` (scripts/build-content.ts) reads the files and writes
 * generated/.
 */

import { LineCounter, isMap, isNode, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { contentFileName, contentSchemas, type ContentName, type ContentOf } from './content-schemas';
import { fixLine, quoted, quotedLine } from './content-line-fix';

export interface ContentProblem {
  /** content/NAME.yaml */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** The field's path, as `social[1].url`; empty for the file as a whole. */
  readonly field: string;
  readonly message: string;
}

export class ContentFileError extends Error {
  override readonly name = 'ContentFileError';
  constructor(readonly problems: readonly ContentProblem[]) {
    super(problems.map(describeProblem).join('\n'));
  }
}

export const describeProblem = (problem: ContentProblem) =>
  `${problem.file}:${problem.line}: ${problem.field ? `${problem.field}: ` : ''}${problem.message}`;

const fieldPath = (path: readonly PropertyKey[]) =>
  path.reduce<string>(
    (joined, key) =>
      typeof key === 'number' ? `${joined}[${key}]` : joined ? `${joined}.${String(key)}` : String(key),
    '',
  );

/** The line of the deepest node of `path` the document has (a missing field: its parent's line). */
function lineOf(document: Document, lines: LineCounter, path: readonly PropertyKey[]): number {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node: unknown = depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

/** Parses and checks `source`, the text of content/NAME.yaml. Throws ContentFileError. */
export function parseContentFile<Name extends ContentName>(name: Name, source: string): ContentOf<Name> {
  const file = `content/${contentFileName(name)}`;
  const lines = new LineCounter();
  const document = parseDocument(source, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const syntaxProblems = [...document.errors, ...document.warnings].map((error): ContentProblem => {
    const line = error.linePos?.[0].line ?? 1;
    // An apostrophe, a colon, a `#` or a leading quote: the line as it should be typed.
    const fix = fixLine(source, line);
    if (fix) return { file, line: fix.line, field: fix.field, message: `${fix.reason}. Write the line as: ${fix.corrected.trim()}` };
    return { file, line, field: '', message: error.message.split('\n')[0] };
  });
  if (syntaxProblems.length > 0) {
    const oncePerLine = syntaxProblems.filter(
      (problem, index) => syntaxProblems.findIndex((other) => other.line === problem.line) === index,
    );
    throw new ContentFileError(oncePerLine);
  }
  const cut = silentCuts(document, source, lines).map((problem) => ({ file, ...problem }));
  if (cut.length > 0) throw new ContentFileError(cut);

  const schema: z.ZodType = contentSchemas[name];
  const result = schema.safeParse(document.toJS());
  if (!result.success) {
    throw new ContentFileError(
      result.error.issues.map((issue) => {
        const line = lineOf(document, lines, issue.path);
        return { file, line, field: fieldPath(issue.path), message: withQuotingFix(issue.message, source, line) };
      }),
    );
  }
  return result.data as ContentOf<Name>;
}

/**
 * A list entry such as `- Note: this one` is a field named "Note" to YAML, not a text: the schema
 * then finds no text, and the fix is the line with the whole entry in quotes.
 */
function withQuotingFix(message: string, source: string, line: number): string {
  if (!/expected string, received object/i.test(message)) return message;
  const entry = /^(\s*- +)(\S.*?)\s*$/.exec(source.split('\n')[line - 1] ?? '');
  if (!entry || !/: /.test(entry[2])) return message;
  return `a colon followed by a space makes YAML read a field, not a text. Write the line as: ${`${entry[1]}${quoted(entry[2])}`.trim()}`;
}

/**
 * Text YAML would shorten without an error, each with the quoting that keeps it whole:
 * - ` #` in an unquoted text starts a comment: `- Sam is the #1 bestselling COO` is "Sam is the";
 * - a line starting with `#` inside an unquoted text of several lines is a comment, dropped;
 * - an unquoted text starting with `&word ` is an anchor named `word`, and the text loses it.
 * (Quoted texts and texts after `>-` keep `#` and `&`; `!` and `*` at the start are errors already.)
 */
function silentCuts(document: Document, source: string, lines: LineCounter): Omit<ContentProblem, 'file'>[] {
  const problems: Omit<ContentProblem, 'file'>[] = [];
  const walk = (node: unknown, path: PropertyKey[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) walk(pair.value, [...path, isScalar(pair.key) ? String(pair.key.value) : '?']);
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item, [...path, index]));
    } else if (isScalar(node) && node.type === 'PLAIN' && node.range) {
      const [start, end] = node.range;
      const line = lines.linePos(start).line;
      const field = fieldPath(path);
      if (node.anchor !== undefined) {
        const lineEnd = source.indexOf('\n', start);
        const anchorAt = source.lastIndexOf('&', start);
        const whole = source.slice(anchorAt, lineEnd === -1 ? undefined : lineEnd).trimEnd();
        problems.push({
          line,
          field,
          message: `the text starts with "&${node.anchor}", which YAML reads as an anchor and drops. Write the line as: ${correctedAt(source, anchorAt, whole)}`,
        });
      } else if (node.comment !== undefined) {
        const restOfLine = source.slice(end, source.indexOf('\n', end) === -1 ? undefined : source.indexOf('\n', end));
        if (/^\s+#/.test(restOfLine)) {
          const whole = `${source.slice(start, end)}${restOfLine}`.replace(/\s*\n\s*/g, ' ').trimEnd();
          problems.push({
            line: lines.linePos(end).line,
            field,
            message: `the text stops before "${restOfLine.trim()}": YAML reads " #" and what follows as a comment. Write the line as: ${correctedAt(source, start, whole)}`,
          });
        } else {
          problems.push({
            line,
            field,
            message:
              'a line starting with "#" inside this text is a comment, and YAML drops it. Put the whole text in quotes, or write it after ">-" on the lines below, indented.',
          });
        }
      }
    }
  };
  walk(document.contents, []);
  return problems;
}

/** The line the text starting at `offset` begins on, with `text` quoted in its place (its indent left out). */
function correctedAt(source: string, offset: number, text: string): string {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = source.indexOf('\n', lineStart);
  return quotedLine(source.slice(lineStart, lineEnd === -1 ? undefined : lineEnd), offset - lineStart, text).trim();
}

/**
 * The TypeScript module generated/NAME.ts (kebab-case) holding the checked data: one export per
 * field of the file (`undefined` for an optional one left out), so a bundle keeps only the
 * fields it reads (the form's island takes the privacy notice, not the privacy page).
 */
export function contentModuleSource<Name extends ContentName>(name: Name, data: ContentOf<Name>): string {
  const typeName = `${name[0].toUpperCase()}${name.slice(1)}Content`;
  const values = data as Readonly<Record<string, unknown>>;
  const fields = Object.keys(contentSchemas[name].shape).map(
    (field) =>
      `export const ${field}: ${typeName}['${field}'] = ${JSON.stringify(values[field], null, 2) ?? 'undefined'};`,
  );
  return [
    `// Generated by \`npm run content\` from content/${contentFileName(name)}: edit that file, not this one.`,
    `import type { ContentOf } from '../content-schemas';`,
    '',
    `type ${typeName} = ContentOf<'${name}'>;`,
    '',
    ...fields,
    '',
  ].join('\n');
}
