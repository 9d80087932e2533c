/**
 * The author's words, swapped: the visual tests compare the design, not the copy, so before each
 * shot every text the author wrote (each string of content/*.yaml) is replaced by the same field's
 * text in a frozen copy (test/e2e/fixtures/visual-content/, the content the baselines were drawn
 * with). A copy edit then changes no pixel; a change of layout, style or a fixed word still does.
 * What stays the design's: the images (their files and sizes) and how many entries a list has.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseContentFile } from '../../core/content/content-file';
import { contentFileName, contentSchemas, type ContentName } from '../../core/content/content-schemas';

export const contentNames = Object.keys(contentSchemas) as ContentName[];

/** Where the frozen copy is. */
export const visualContentDirectory = 'test/e2e/fixtures/visual-content';

/** Every content file of `directory`, checked. */
export function readContentDirectory(directory: string): Record<ContentName, unknown> {
  return Object.fromEntries(
    contentNames.map((name) => [
      name,
      parseContentFile(name, readFileSync(path.join(directory, contentFileName(name)), 'utf8')),
    ]),
  ) as Record<ContentName, unknown>;
}

/** Each string of `value` by its path (`author.social[1].url`). */
export function stringLeaves(value: unknown, at = ''): Map<string, string> {
  const leaves = new Map<string, string>();
  const walk = (node: unknown, where: string) => {
    if (typeof node === 'string') leaves.set(where, node);
    else if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${where}[${index}]`));
    else if (typeof node === 'object' && node !== null)
      for (const [key, item] of Object.entries(node)) walk(item, where ? `${where}.${key}` : key);
  };
  walk(value, at);
  return leaves;
}

/** A text as written now, and the frozen copy's text of the same field. */
export type CopySwap = readonly [current: string, frozen: string];

/** The swaps from `current` content to `frozen` content: each field whose text differs, longest first. */
export function copySwaps(current: unknown, frozen: unknown): CopySwap[] {
  const frozenLeaves = stringLeaves(frozen);
  const swaps = new Map<string, string>();
  for (const [where, text] of stringLeaves(current)) {
    const frozenText = frozenLeaves.get(where);
    if (frozenText !== undefined && frozenText !== text && !swaps.has(text)) swaps.set(text, frozenText);
  }
  return [...swaps].sort(([a], [b]) => b.length - a.length);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with every current text replaced by its frozen one, in one pass (a replacement is never replaced again). */
export function swapText(text: string, swaps: readonly CopySwap[]): string {
  if (swaps.length === 0) return text;
  const lookup = new Map(swaps);
  const pattern = new RegExp(swaps.map(([from]) => escaped(from)).join('|'), 'g');
  return text.replace(pattern, (found) => lookup.get(found) ?? found);
}

/** `value` with `swapText` applied to every string in it. */
export function swapCopy<T>(value: T, swaps: readonly CopySwap[]): T {
  if (typeof value === 'string') return swapText(value, swaps) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => swapCopy(item, swaps)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, swapCopy(item, swaps)])) as T;
  return value;
}

/** The swaps from the repository's content/ to the frozen copy the visual baselines were drawn with. */
export function swapsToVisualContent(root = process.cwd()): CopySwap[] {
  return copySwaps(
    readContentDirectory(path.join(root, 'content')),
    readContentDirectory(path.join(root, visualContentDirectory)),
  );
}
