/**
 * A copy edit of the whole of content/ (test/support/copy-edit.ts) is a valid edit, and the visual
 * tests draw the frozen copy whatever the words, images and list lengths (test/support/copy-swap.ts). The proof that every suite
 * passes on such an edit is `npm run test:copy-edit` (test/support/copy-edit-check.ts), which CI runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { parseContentFile } from '../../core/content/content-file';
import { contentFileName } from '../../core/content/content-schemas';
import { editEveryText, keptFields, renamedAuthor, type EditedImage } from '../support/copy-edit';
import {
  contentNames,
  copySwaps,
  readContentDirectory,
  stringLeaves,
  structureSwaps,
  swapCopy,
  visualContentDirectory,
} from '../support/copy-swap';

const source = (name: (typeof contentNames)[number]) =>
  readFileSync(path.join('content', contentFileName(name)), 'utf8');
const originalName = (parse(source('author')) as { name: string }).name;
const original = Object.fromEntries(contentNames.map((name) => [name, parseContentFile(name, source(name))]));
const images: EditedImage[] = [];
const editedSources = Object.fromEntries(
  contentNames.map((name) => [name, editEveryText(name, source(name), originalName, images)]),
);
const edited = Object.fromEntries(contentNames.map((name) => [name, parseContentFile(name, editedSources[name]!)]));
const isKept = (where: string) => keptFields.some((field) => where.endsWith(`.${field}`) || where === field);

test.each(contentNames)(
  'every text of content/%s is rewritten whole, and the edit passes the content check',
  (name) => {
    const before = stringLeaves(original[name]);
    const after = stringLeaves(edited[name]);
    const rewritten = [...before].filter(([where]) => after.has(where) && !isKept(where));
    expect(rewritten.length).toBeGreaterThan(0);
    // No text keeps its old words: not one run of four of them survives.
    for (const [where, text] of rewritten) {
      const words = text.split(/\s+/);
      const runs = words.slice(0, -3).map((_, index) => words.slice(index, index + 4).join(' '));
      expect({ where, kept: runs.filter((run) => after.get(where)!.includes(run)) }).toEqual({ where, kept: [] });
    }
  },
);

test('the biography gains a third paragraph, and lists elsewhere gain or lose an entry', () => {
  expect((edited.author as { bio: string[] }).bio).toHaveLength((original.author as { bio: string[] }).bio.length + 1);
  const changedLists = contentNames.flatMap((name) => structureSwaps(edited[name], original[name]).lists);
  expect(changedLists.some(({ current, frozen }) => current.length < frozen.length)).toBe(true);
});

test('every image is another file of the same kind and size', () => {
  const before = structureSwaps(original, original).images;
  const after = structureSwaps(edited, original).images;
  expect(after.map(({ src }) => src.split('.').pop())).toEqual(before.map(({ src }) => src.split('.').pop()));
  expect(after.map(({ src }) => src)).not.toContain(before[0]!.src);
  expect(images.map(({ src }) => src).toSorted()).toEqual(after.map(({ src }) => src).toSorted());
});

test('texts are written in each quoting style the guide shows: plain, double quotes, and single quotes with a doubled apostrophe', () => {
  const everySource = Object.values(editedSources).join('\n');
  // Unquoted, with the apostrophe of Sam O'Neill (or, re-editing an edited copy, the name it gets back).
  expect(editedSources.author).toContain(`\nname: ${renamedAuthor(originalName)}\n`);
  expect(everySource).toMatch(/: "[^"\n]*'/);
  expect(everySource).toMatch(/: '[^'\n]*''/);
});

test("renames the author (Sam O'Neill), in the name and in every text that named the author", () => {
  const author = edited.author as { name: string };
  expect(author.name).toBe(renamedAuthor(originalName));
  expect(author.name).not.toBe(originalName);
  const everyText = contentNames.flatMap((name) => [...stringLeaves(edited[name]).values()]);
  expect(everyText.filter((text) => text.includes(originalName))).toEqual([]);
});

test('the visual tests swap every edited text back to the frozen copy the baselines were drawn with', () => {
  const frozen = readContentDirectory(visualContentDirectory);
  const swapped = swapCopy(edited, copySwaps(edited, frozen), structureSwaps(edited, frozen).lists);
  for (const name of contentNames) {
    const frozenLeaves = stringLeaves(frozen[name]);
    const differing = [...stringLeaves(swapped[name])].filter(
      ([where, text]) => frozenLeaves.has(where) && frozenLeaves.get(where) !== text,
    );
    expect(differing).toEqual([]);
  }
});

test('CI runs the suites on a copy with every text edited', () => {
  const ci = parse(readFileSync('.github/workflows/ci.yml', 'utf8')) as {
    jobs: Record<string, { steps: { run?: string }[] }>;
  };
  const runs = Object.values(ci.jobs).flatMap((job) => job.steps.map((step) => step.run?.trim()));
  expect(runs).toContain('.ci/run npm run test:copy-edit');
});
