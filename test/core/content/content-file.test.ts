/**
 * The author's content files: every file in content/ passes its schema; an apostrophe or quotes
 * need no care; a mistake is reported with its file, line and field; and the copy an edit puts
 * in reaches the e-mail and the page unchanged.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ContentFileError, contentModuleSource, parseContentFile } from '../../../core/content/content-file';
import { contentFileName, contentSchemas, type ContentName } from '../../../core/content/content-schemas';
import { visualContentDirectory } from '../../support/copy-swap';

const contentText = (name: ContentName) =>
  readFileSync(path.join(process.cwd(), 'content', contentFileName(name)), 'utf8');

/**
 * The sample content (the frozen copy the visual tests draw, test/support/copy-swap.ts): the
 * mistakes below are typed into it, not into the author's files, whose lines are the author's.
 */
const sampleText = (name: ContentName) =>
  readFileSync(path.join(process.cwd(), visualContentDirectory, contentFileName(name)), 'utf8');

/** The sample file with one line changed, as an author would type it. */
function edited(name: ContentName, line: RegExp, replacement: string): string {
  const text = sampleText(name);
  expect(text).toMatch(line);
  return text.replace(line, replacement);
}

const problemsOf = (name: ContentName, text: string) => {
  try {
    parseContentFile(name, text);
  } catch (error) {
    if (error instanceof ContentFileError) return error.problems;
    throw error;
  }
  throw new Error('expected the content to be refused');
};

const lineNumberOf = (text: string, pattern: RegExp) => text.split('\n').findIndex((line) => pattern.test(line)) + 1;

describe('the content files', () => {
  test.each((Object.keys(contentSchemas) as ContentName[]).map((name) => [contentFileName(name), name] as const))(
    'content/%s passes its schema',
    (_file, name) => {
      expect(() => parseContentFile(name, contentText(name))).not.toThrow();
    },
  );

  test("takes a name with an apostrophe, typed plainly: Sam O'Neill", () => {
    const author = parseContentFile('author', edited('author', /^name: .*$/m, "name: Sam O'Neill"));
    expect(author.name).toBe("Sam O'Neill");
  });

  test('takes quotes and an apostrophe inside a quoted text', () => {
    const text = edited('testimonial', /^author: .*$/m, `author: 'Dana "DJ" O''Brien'`);
    expect(parseContentFile('testimonial', text).author).toBe(`Dana "DJ" O'Brien`);
  });

  test('names the file, the line and the field of a missing value', () => {
    const text = edited('author', /^(\s+url: https:\/\/www\.instagram\.com\/.*)$/m, '    url:');
    const [problem, ...others] = problemsOf('author', text);
    expect(others).toEqual([]);
    expect(problem).toMatchObject({ file: 'content/author.yaml', field: 'social[1].url' });
    expect(problem!.line).toBe(lineNumberOf(text, /^ {4}url:$/));
  });

  test('names a misspelt field, and every mistake of the file at once', () => {
    const text = edited('book', /^tagline:/m, 'tagilne:').replace(/^ {2}width: 320$/m, '  width: wide');
    const problems = problemsOf('book', text);
    expect(problems.map((problem) => problem.field).sort()).toEqual(['', 'cover.width', 'tagline'].sort());
    expect(problems.find((problem) => problem.field === 'cover.width')!.line).toBe(lineNumberOf(text, /width: wide/));
    expect(problems.find((problem) => problem.field === '')!.message).toMatch(/tagilne/);
  });

  test('names the line of a YAML mistake', () => {
    const text = edited('audience', /^heading: .*$/m, 'heading: "Who This Book Is For');
    const [problem] = problemsOf('audience', text);
    expect(problem).toMatchObject({ file: 'content/audience.yaml', field: '' });
    expect(problem!.line).toBeGreaterThanOrEqual(lineNumberOf(text, /^heading:/));
  });

  test('refuses a web address that is not https, by its field', () => {
    const text = edited('book', /^ {2}url: .*$/m, '  url: http://www.amazon.com/dp/0000000000');
    expect(problemsOf('book', text)).toEqual([
      expect.objectContaining({ field: 'amazon.url', line: lineNumberOf(text, /^ {2}url:/) }),
    ]);
  });

  test('refuses " #" in an unquoted text, which YAML would cut there, naming the line and the quoting that keeps it', () => {
    const text = edited('author', /^bio:\n(?: {2,}.*\n)+/m, 'bio:\n  - Sam is the #1 bestselling COO\n');
    expect(problemsOf('author', text)).toEqual([
      {
        file: 'content/author.yaml',
        line: lineNumberOf(text, /#1 bestselling/),
        field: 'bio[0]',
        message:
          'the text stops before "#1 bestselling COO": YAML reads " #" and what follows as a comment. Write the line as: - "Sam is the #1 bestselling COO"',
      },
    ]);
  });

  test('suggests single quotes, an apostrophe doubled, for a cut text that holds a double quote', () => {
    const text = edited('testimonial', /^author: .*$/m, 'author: Dana "DJ" O\'Brien #1 fan');
    const [problem] = problemsOf('testimonial', text);
    expect(problem!.message).toContain(`Write the line as: author: 'Dana "DJ" O''Brien #1 fan'`);
  });

  test('keeps "#" inside quotes, after ">-" and without a space before it', () => {
    const quotedText = edited('author', /^bio:\n(?: {2,}.*\n)+/m, 'bio:\n  - "Sam is the #1 bestselling COO"\n');
    expect(parseContentFile('author', quotedText).bio[0]).toBe('Sam is the #1 bestselling COO');
    const noSpace = edited('testimonial', /^author: .*$/m, 'author: Maria C#');
    expect(parseContentFile('testimonial', noSpace).author).toBe('Maria C#');
    const folded = edited('audience', /^heading: .*$/m, 'heading: >-\n  Who This #1 Book Is For');
    expect(parseContentFile('audience', folded).heading).toBe('Who This #1 Book Is For');
  });

  test('refuses a comment line inside an unquoted text of several lines, which YAML would drop', () => {
    const text = edited('testimonial', /^author: .*$/m, 'author: Maria\n  # Thompson, Business Owner');
    const [problem] = problemsOf('testimonial', text);
    expect(problem).toMatchObject({ file: 'content/testimonial.yaml', field: 'author' });
    expect(problem!.message).toMatch(/line starting with "#" inside this text is a comment/);
  });

  test('refuses an unquoted text starting with "&word", which YAML reads as an anchor and drops', () => {
    const text = edited('testimonial', /^author: .*$/m, 'author: &Co founder');
    expect(problemsOf('testimonial', text)).toEqual([
      expect.objectContaining({
        field: 'author',
        line: lineNumberOf(text, /^author:/),
        message: expect.stringContaining('Write the line as: author: "&Co founder"'),
      }),
    ]);
  });

  test.each([
    [
      "an apostrophe inside single quotes (they'd)",
      "author: 'Maria, who said they'd buy it again'",
      "inside single quotes an apostrophe ends the text (write it twice: ''). Write the line as: author: \"Maria, who said they'd buy it again\"",
    ],
    [
      'a text starting with a quote',
      'author: "Maria" Thompson, a reader',
      `the text starts with a quote ("), so YAML expects it to end with one. Write the line as: author: '"Maria" Thompson, a reader'`,
    ],
    [
      'a colon inside an unquoted text',
      'author: Maria Thompson: owner of Thompson Tools',
      'a colon followed by a space makes YAML read a new field. Write the line as: author: "Maria Thompson: owner of Thompson Tools"',
    ],
  ])('for %s, names the file, the line and the field, and shows the corrected line', (_mistake, typed, message) => {
    const text = edited('testimonial', /^author: .*$/m, typed);
    expect(problemsOf('testimonial', text)).toEqual([
      { file: 'content/testimonial.yaml', line: lineNumberOf(text, /^author:/), field: 'author', message },
    ]);
    // The corrected line, typed in its place, is read as the text the author meant.
    const corrected = message.slice(message.indexOf('Write the line as: ') + 'Write the line as: '.length);
    expect(parseContentFile('testimonial', edited('testimonial', /^author: .*$/m, corrected)).author).toBe(
      typed.slice('author: '.length).replace(/^'(.*)'$/, '$1'),
    );
  });

  test('a list entry with a colon, which YAML reads as a field: the line with the entry quoted', () => {
    const text = edited('audience', /^points:\n {2}- .*$/m, 'points:\n  - Buyers: of a business, new to it');
    const [problem] = problemsOf('audience', text);
    expect(problem).toMatchObject({ file: 'content/audience.yaml', field: 'points[0]' });
    expect(problem!.line).toBe(lineNumberOf(text, /Buyers:/));
    expect(problem!.message).toContain('Write the line as: - "Buyers: of a business, new to it"');
  });

  test('writes the checked data as a module, one export per field, with the apostrophe as typed', () => {
    const author = parseContentFile('author', edited('author', /^name: .*$/m, "name: Sam O'Neill"));
    const source = contentModuleSource('author', author);
    const [, literal] = /^export const name: \w+\['name'\] = (.*);$/m.exec(source)!;
    expect(JSON.parse(literal!)).toBe("Sam O'Neill");
  });
});

describe("an author's edit, through the e-mail and the page", () => {
  const renamed = parseContentFile('author', edited('author', /^name: .*$/m, "name: Sam O'Neill"));

  async function withRenamedAuthor<T>(use: () => Promise<T>): Promise<T> {
    let result!: T;
    await jest.isolateModulesAsync(async () => {
      jest.doMock('../../../core/content/generated/author', () => renamed);
      result = await use();
    });
    return result;
  }

  test('the e-mail is signed by the new name, escaped in its HTML', async () => {
    const email = await withRenamedAuthor(async () => {
      const { buildCheatSheetEmail } = await import('../../../core/documents/cheat-sheet-email');
      return buildCheatSheetEmail({ name: 'Ada' });
    });
    expect(email.text).toContain("\nSam O'Neill\n");
    expect(email.html).toContain('Sam O&#39;Neill');
    expect(email.html).not.toContain("Sam O'Neill");
  });

  test('About the Author shows the new name and labels its links with it', async () => {
    const html = await withRenamedAuthor(async () => {
      const { AboutAuthor } = await import('../../../frontend/src/components/about-author');
      return renderToStaticMarkup(createElement(AboutAuthor));
    });
    expect(html).toContain('Sam O&#x27;Neill');
    expect(html).toContain('aria-label="Sam O&#x27;Neill on LinkedIn"');
  });
});
