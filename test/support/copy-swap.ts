/**
 * The author's words, swapped: the visual tests compare the design, not the copy, so before each
 * shot every text the author wrote (each string of content/*.yaml) is replaced by the same field's
 * text in a frozen copy (test/e2e/fixtures/visual-content/, the content the baselines were drawn
 * with). A copy edit then changes no pixel; a change of layout, style or a fixed word still does.
 * The author's pictures and list lengths are frozen too (visualFreeze): each image is drawn from
 * the frozen copy's file (test/e2e/fixtures/visual-content/images/) at its size, and a list the
 * author lengthened or shortened is drawn with the frozen copy's entries.
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

/** A list of texts whose length the author changed: drawn with the frozen copy's entries instead. */
export interface ListSwap {
  readonly current: readonly string[];
  readonly frozen: readonly string[];
}

/** An image of the author's: drawn from the frozen copy's file (`frozenFile`, under the fixtures), at its size. */
export interface ImageSwap {
  readonly src: string;
  readonly frozenFile: string;
  readonly width: number;
  readonly height: number;
}

/** What the visual tests freeze: the texts, the lists' lengths, the images. */
export interface VisualFreeze {
  readonly texts: readonly CopySwap[];
  readonly lists: readonly ListSwap[];
  readonly images: readonly ImageSwap[];
}

const isTextList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string');

interface ImageFields {
  readonly src: string;
  readonly width: number;
  readonly height: number;
}
const isImage = (value: unknown): value is ImageFields =>
  typeof value === 'object' && value !== null && typeof (value as ImageFields).src === 'string' && 'width' in value;

/** Walks `current` and `frozen` side by side, calling `visit` on each pair of values at the same path. */
function walkTogether(current: unknown, frozen: unknown, visit: (current: unknown, frozen: unknown) => boolean): void {
  if (visit(current, frozen)) return;
  if (Array.isArray(current) && Array.isArray(frozen)) {
    current.forEach((item, index) => walkTogether(item, frozen[index], visit));
  } else if (typeof current === 'object' && current !== null && typeof frozen === 'object' && frozen !== null) {
    for (const [key, item] of Object.entries(current))
      walkTogether(item, (frozen as Record<string, unknown>)[key], visit);
  }
}

/** The lists of texts whose length differs from the frozen copy's, and every image with its frozen file and size. */
export function structureSwaps(current: unknown, frozen: unknown): Pick<VisualFreeze, 'lists' | 'images'> {
  const lists: ListSwap[] = [];
  const images: ImageSwap[] = [];
  walkTogether(current, frozen, (now, then) => {
    if (isTextList(now) && isTextList(then)) {
      if (now.length !== then.length) lists.push({ current: now, frozen: then });
      return true;
    }
    if (isImage(now) && isImage(then)) {
      images.push({
        src: now.src,
        frozenFile: path.join(visualContentDirectory, then.src),
        width: then.width,
        height: then.height,
      });
      return true;
    }
    return false;
  });
  return { lists, images };
}

/** `value` with `swapText` applied to every string in it, and each lengthened or shortened list replaced by the frozen one. */
export function swapCopy<T>(value: T, swaps: readonly CopySwap[], lists: readonly ListSwap[] = []): T {
  if (typeof value === 'string') return swapText(value, swaps) as T;
  if (Array.isArray(value)) {
    const list = lists.find(
      ({ current }) => current.length === value.length && current.every((t, i) => t === value[i]),
    );
    if (list) return [...list.frozen] as T;
    return value.map((item: unknown) => swapCopy(item, swaps, lists)) as T;
  }
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, swapCopy(item, swaps, lists)])) as T;
  return value;
}

/** The swaps from the repository's content/ to the frozen copy the visual baselines were drawn with. */
export function swapsToVisualContent(root = process.cwd()): readonly CopySwap[] {
  return visualFreeze(root).texts;
}

/** Everything the visual tests swap back to the frozen copy: texts, list lengths, images. */
export function visualFreeze(root = process.cwd()): VisualFreeze {
  const current = readContentDirectory(path.join(root, 'content'));
  const frozen = readContentDirectory(path.join(root, visualContentDirectory));
  return { texts: copySwaps(current, frozen), ...structureSwaps(current, frozen) };
}
