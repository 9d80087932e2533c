/**
 * A copy edit of every text field (test/support/copy-edit.ts) is a valid edit, and the visual tests
 * draw the frozen copy whatever the words (test/support/copy-swap.ts). The proof that every suite
 * passes on such an edit is `npm run test:copy-edit` (test/support/copy-edit-check.ts), which CI runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { parseContentFile } from '../../core/content/content-file';
import { contentFileName } from '../../core/content/content-schemas';
import { editEveryText, keptFields, renamedAuthor } from '../support/copy-edit';
import {
  contentNames,
  copySwaps,
  readContentDirectory,
  stringLeaves,
  swapCopy,
  visualContentDirectory,
} from '../support/copy-swap';

const source = (name: (typeof contentNames)[number]) =>
  readFileSync(path.join('content', contentFileName(name)), 'utf8');
const originalName = (parse(source('author')) as { name: string }).name;
const original = Object.fromEntries(contentNames.map((name) => [name, parseContentFile(name, source(name))]));
const edited = Object.fromEntries(
  contentNames.map((name) => [name, parseContentFile(name, editEveryText(name, source(name), originalName))]),
);
const isKept = (where: string) => keptFields.some((field) => where.endsWith(`.${field}`) || where === field);

test.each(contentNames)('every text field of content/%s is edited, and the edit passes the content check', (name) => {
  const before = stringLeaves(original[name]);
  const after = stringLeaves(edited[name]);
  expect([...after.keys()]).toEqual([...before.keys()]);
  const unchanged = [...before].filter(([where, text]) => after.get(where) === text).map(([where]) => where);
  expect(unchanged.filter((where) => !isKept(where))).toEqual([]);
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
  const swapped = swapCopy(edited, copySwaps(edited, frozen));
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
