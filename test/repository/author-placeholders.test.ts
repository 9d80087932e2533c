/**
 * docs/author.md's list of placeholders is the code's (core/content/placeholders.ts): the same
 * items, in the same order, in the same words, so a new placeholder cannot go undocumented.
 */
import { readFileSync } from 'node:fs';
import { placeholderGuide } from '../../core/content/placeholders';

/** The list as the guide writes it: one line per placeholder, the last ending with a full stop. */
const expectedList = placeholderGuide
  .map(
    (entry, index) =>
      `- **${entry.name}**: \`${entry.file}\`, ${entry.fields}: ${entry.replaceWith}${index === placeholderGuide.length - 1 ? '.' : ';'}`,
  )
  .join('\n');

test('docs/author.md lists every placeholder of the code, in its words and order, with the file and fields', () => {
  const text = readFileSync('docs/author.md', 'utf8');
  const [, list] = /<!-- placeholders:start -->\s*\n([\s\S]*?)\n\s*<!-- placeholders:end -->/.exec(text) ?? [];
  expect(list).toBe(expectedList);
});

test('the site address in site.yaml is one of them, the ninth', () => {
  expect(placeholderGuide.map((entry) => `${entry.file} ${entry.fields}`)).toContain('site.yaml `address`');
  expect(placeholderGuide).toHaveLength(9);
});
