/**
 * A copy edit of the whole of content/: the files as an author's first week might leave them, to
 * prove that no test and no baseline depends on the author's words, pictures or list lengths
 * (test/support/copy-edit-check.ts runs the whole suite on such a copy; test/repository/copy-edit.test.ts
 * checks the edit itself). The author is renamed Sam O'Neill everywhere; every other text is
 * rewritten whole (none of its old words kept), with the characters YAML, HTML and spreadsheets
 * treat specially (` #`, `: `, quotes, an apostrophe, `&`, `<`), and written back in each quoting
 * style the guide shows (plain, double quotes, single quotes with a doubled apostrophe); a web
 * address becomes another, an e-mail address another; every image is another file of the same
 * kind and size (editedImages); lists gain or lose an entry where the schema allows (the biography
 * gains a third paragraph). What stays (keptFields): the social networks' and areas' fixed names
 * and the privacy page's version, which are not copy.
 */
import { isScalar, parseDocument, Scalar, visit, type Document, type YAMLSeq } from 'yaml';
import { ContentFileError, parseContentFile } from '../../core/content/content-file';
import type { ContentName } from '../../core/content/content-schemas';

export const newAuthorName = "Sam O'Neill";

/** The author's new name: Sam O'Neill, or, for content already signed so (an edited copy), Jordan Ellis. */
export const renamedAuthor = (originalName: string) =>
  originalName === newAuthorName ? 'Jordan Ellis' : newAuthorName;

/** Fields that are not copy: a network's and an area's fixed names (the schema allows only those), the privacy text's date. */
export const keptFields = ['network', 'area', 'version'] as const;

/** The words every rewritten text carries: what a careless YAML, HTML or CSV writer would break on. */
export const trickyWords = `: "quoted" & <b>bold</b>, they'd say it's the #1 choice`;

/** The same, short: for a short text (a link's words, a heading). */
export const shortTrickyWords = `: "it's" & #1`;

/** The special characters again, in other words: for an edit of an edited copy. */
const secondTrickyWords = ` wrote: 'we'd' & <i>more</i>; #2 of "two" lists`;
const secondShortTrickyWords = ` again: 'we'd' & #2`;

const secondFiller = ', yet more of it';

/** Filler that makes a rewritten text as long as the one it replaces: an author rewrites, rarely doubles. */
const filler = ' and other new words';

/**
 * A whole new text about as long as `original` (a layout check such as "the page fits the window"
 * measures the author's lengths, as it should), with YAML's, HTML's and CSV's special characters.
 */
function aboutAsLong(original: string, counter: number, file: string, newName: string): string {
  // An edit of an edited copy (the author already Sam O'Neill) gets other words again.
  const [tricky, shortTricky, padding] =
    newName === newAuthorName
      ? [trickyWords, shortTrickyWords, filler]
      : [secondTrickyWords, secondShortTrickyWords, secondFiller];
  if (original.length < 40) return `${file} ${counter}${shortTricky}`;
  let text = `${newName}'s ${file} ${counter}${original.length >= 60 ? tricky : shortTricky}`;
  while (text.length + padding.length <= original.length) text += padding;
  return text;
}

/** The three quoting styles the guide shows, taken in turn. */
const quotingStyles = [Scalar.PLAIN, Scalar.QUOTE_DOUBLE, Scalar.QUOTE_SINGLE] as const;

/** An image the edit puts in place of the author's: another file of the same kind and size. */
export interface EditedImage {
  /** The new `src`, under frontend/public/images/. */
  readonly src: string;
  /** The file's content. */
  readonly content: string;
}

/** Another picture of the same kind (SVG) and size: a different drawing, so no pixel of the old one survives. */
function editedImage(src: string, width: number, height: number): EditedImage {
  const name = src.replace(/^\/images\//, '').replace(/\.svg$/, '');
  return {
    src: `/images/edited-${name}.svg`,
    content: `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="#7a2e8c"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#f2c14e"/></svg>\n`,
  };
}

/** A text of `length` characters at most, still new: for a field with a length limit. */
const shortened = (text: string, length: number) => text.slice(0, length).trimEnd();

/**
 * content/NAME.yaml's `source` edited as described above; `originalName` is the author's name
 * before (author.yaml's `name`). `images` collects the new image files the edit refers to. Still
 * passes the content check.
 */
export function editEveryText(
  name: ContentName,
  source: string,
  originalName: string,
  images: EditedImage[] = [],
): string {
  const document = parseDocument(source);
  let counter = 0;
  const newName = renamedAuthor(originalName);
  // Whole new texts, each its own (the visual tests tell fields apart by their text).
  const rewritten = (field: string, text: string): string => {
    counter += 1;
    if (field === 'name') return newName;
    if (/^https:\/\//.test(text)) return `https://edited-${counter}.example.org/${name}`;
    if (/^[^\s@]+@[^\s@]+$/.test(text)) return `edited.${counter}@example.org`;
    return aboutAsLong(text, counter, name, newName);
  };
  const styled = (scalar: Scalar) => {
    scalar.type = quotingStyles[counter % quotingStyles.length];
  };

  visit(document, {
    Pair(_, pair) {
      if (!isScalar(pair.key) || !isScalar(pair.value)) return;
      const field = String(pair.key.value);
      if (field === 'src' && typeof pair.value.value === 'string') return; // the image, below
      if ((keptFields as readonly string[]).includes(field) || typeof pair.value.value !== 'string') return;
      pair.value.value = rewritten(field, pair.value.value);
      styled(pair.value);
      // The guide's own example, unquoted with an apostrophe: name: Sam O'Neill.
      if (field === 'name') pair.value.type = Scalar.PLAIN;
    },
    Seq(_, seq) {
      for (const item of seq.items) {
        if (!isScalar(item) || typeof item.value !== 'string') continue;
        item.value = rewritten('', item.value);
        styled(item);
      }
    },
  });
  editImages(document, images);
  fitLimits(name, document);
  changeListLengths(name, document, (text) => rewritten('', text));
  const text = document.toString();
  parseContentFile(name, text);
  return text;
}

/** Every image (a map with `src`, `width`, `height`) becomes another file of the same kind and size. */
function editImages(document: Document, images: EditedImage[]): void {
  visit(document, {
    Map(_, map) {
      const src = map.get('src');
      const width = map.get('width');
      const height = map.get('height');
      if (typeof src !== 'string' || typeof width !== 'number' || typeof height !== 'number') return;
      const image = editedImage(src, width, height);
      images.push(image);
      map.set('src', image.src);
    },
  });
}

/**
 * Lists of texts gain an entry (the first, third… list) or lose their last (the second, fourth…),
 * the other way round when the schema forbids it, and stay as they are when it allows neither
 * (a fixed number of entries). The author's biography always gains one: a third paragraph.
 */
function changeListLengths(name: ContentName, document: Document, newText: (text: string) => string): void {
  const seqs: YAMLSeq[] = [];
  visit(document, {
    Seq(_, seq) {
      if (seq.items.length > 0 && seq.items.every((item) => isScalar(item) && typeof item.value === 'string'))
        seqs.push(seq);
    },
  });
  const valid = () => {
    try {
      parseContentFile(name, document.toString());
      return true;
    } catch (error) {
      if (error instanceof ContentFileError) return false;
      throw error;
    }
  };
  const add = (seq: YAMLSeq) => {
    const last = seq.items.at(-1) as Scalar;
    const added = new Scalar(newText(String(last.value)));
    added.type = Scalar.QUOTE_DOUBLE;
    seq.items.push(added);
    if (valid()) return true;
    seq.items.pop();
    return false;
  };
  const remove = (seq: YAMLSeq) => {
    if (seq.items.length < 2) return false;
    const removed = seq.items.pop();
    if (valid()) return true;
    seq.items.push(removed);
    return false;
  };
  seqs.forEach((seq, index) => {
    const grows = name === 'author' || index % 2 === 0;
    if (grows ? !add(seq) : !remove(seq)) void (grows ? remove(seq) : add(seq));
  });
  if (!valid()) throw new Error(`content/${name}: the list edits broke the content check`);
}

/** A field whose limit the rewritten text breaks (the home-screen name) gets a text within it. */
function fitLimits(name: ContentName, document: Document): void {
  try {
    parseContentFile(name, document.toString());
  } catch (error) {
    if (!(error instanceof ContentFileError)) throw error;
    for (const problem of error.problems) {
      const path = problem.field
        .split(/\.|\[(\d+)\]/)
        .filter(Boolean)
        .map((key) => (/^\d+$/.test(key) ? Number(key) : key));
      const node = document.getIn(path, true);
      const limit = /at most (\d+) characters/.exec(problem.message)?.[1];
      if (isScalar(node) && limit !== undefined) node.value = shortened(`Edited ${String(node.value)}`, Number(limit));
    }
  }
}
