/**
 * A copy edit of every text field: the content files as an author might rewrite them, to prove
 * that no test and no baseline depends on the words (test/support/copy-edit-check.ts runs the suites on
 * such a copy; test/repository/copy-edit.test.ts checks the edit itself). The author is renamed
 * Sam O'Neill everywhere; every other text gets words with the characters YAML, HTML and
 * spreadsheets treat specially (` #`, `: `, quotes, `&`, `<`); a web address gets a query, an e-mail
 * address a new local part. What stays (keptFields): image files, the social networks' and areas'
 * fixed names and the privacy page's version, which are not copy.
 */
import { isScalar, parseDocument, visit, type Scalar } from 'yaml';
import { ContentFileError, parseContentFile } from '../../core/content/content-file';
import type { ContentName } from '../../core/content/content-schemas';

export const newAuthorName = "Sam O'Neill";

/** The author's new name: Sam O'Neill, or, for content already signed so (an edited copy), Jordan Ellis. */
export const renamedAuthor = (originalName: string) =>
  originalName === newAuthorName ? 'Jordan Ellis' : newAuthorName;

/**
 * Fields that are not copy: an image's file, a network's and an area's fixed names (the schema
 * allows only those), the privacy text's date.
 */
export const keptFields = ['src', 'network', 'area', 'version'] as const;

/** The words added to a text: what a careless YAML, HTML or CSV writer would break on. */
export const addedWords = ': edited, "quoted" & <b>bold</b>, the #1 choice';

function editedText(text: string, field: string, originalName: string): string {
  const newName = renamedAuthor(originalName);
  if (field === 'name') return newName;
  const renamed = text
    .split(originalName)
    .join(newName)
    .split(originalName.split(' ')[0]!)
    .join(newName.split(' ')[0]!);
  if (/^https:\/\//.test(text)) return `${text}${text.includes('?') ? '&' : '?'}edited=1`;
  if (/^[^\s@]+@[^\s@]+$/.test(text)) return `edited.${text}`;
  return `${renamed}${addedWords}`;
}

/** The same length, every letter's case flipped: for a field with a length limit. */
const flipped = (text: string) =>
  [...text].map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase())).join('');

/**
 * content/NAME.yaml's `source` with every text field edited; `originalName` is the author's name
 * before (author.yaml's `name`), replaced in every text. Still passes the content check.
 */
export function editEveryText(name: ContentName, source: string, originalName: string): string {
  const document = parseDocument(source);
  const edit = (shorter: ReadonlySet<Scalar>) => {
    visit(document, {
      Pair(_, pair) {
        if (!isScalar(pair.key) || !isScalar(pair.value) || typeof pair.value.value !== 'string') return;
        const field = String(pair.key.value);
        if ((keptFields as readonly string[]).includes(field)) return;
        const original = originalOf.get(pair.value) ?? pair.value.value;
        originalOf.set(pair.value, original);
        pair.value.value = shorter.has(pair.value) ? flipped(original) : editedText(original, field, originalName);
      },
      Seq(_, seq) {
        for (const item of seq.items) {
          if (!isScalar(item) || typeof item.value !== 'string') continue;
          const original = originalOf.get(item) ?? item.value;
          originalOf.set(item, original);
          item.value = shorter.has(item) ? flipped(original) : editedText(original, '', originalName);
        }
      },
    });
  };
  const originalOf = new Map<Scalar, string>();
  edit(new Set());
  // A field whose limit the longer text breaks (the home-screen name) gets a text of its own length.
  try {
    parseContentFile(name, document.toString());
  } catch (error) {
    if (!(error instanceof ContentFileError)) throw error;
    const tooLong = new Set<Scalar>();
    for (const problem of error.problems) {
      const node = document.getIn(
        problem.field
          .split(/\.|\[(\d+)\]/)
          .filter(Boolean)
          .map(pathKey),
        true,
      );
      if (isScalar(node)) tooLong.add(node);
    }
    edit(tooLong);
  }
  const text = document.toString();
  parseContentFile(name, text);
  return text;
}

const pathKey = (key: string) => (/^\d+$/.test(key) ? Number(key) : key);
