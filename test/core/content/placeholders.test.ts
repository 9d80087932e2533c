import {
  locatePlaceholders,
  placeholderGuide,
  placeholderPolicyFor,
  placeholderReport,
  placeholdersIn,
  type ContentSnapshot,
} from '../../../core/content/placeholders';

const everythingReal: ContentSnapshot = {
  site: {},
  book: { amazon: {}, cover: {} },
  author: { social: [{ network: 'Facebook' }, { network: 'Instagram' }, { network: 'LinkedIn' }] },
  resources: { podcast: {} },
  testimonial: {},
  privacy: {},
};

describe("the author's placeholders", () => {
  test('names nothing once every item is real', () => {
    expect(placeholdersIn(everythingReal)).toEqual([]);
    expect(placeholderReport([], 'fail')).toBeNull();
  });

  test('names each marked item in words, in the order of the page', () => {
    const marked = { placeholder: true } as const;
    const content: ContentSnapshot = {
      site: {},
      book: { amazon: marked, cover: {} },
      author: {
        photo: marked,
        social: [{ network: 'Facebook' }, { network: 'Instagram', ...marked }, { network: 'LinkedIn' }],
      },
      resources: { podcast: marked },
      testimonial: {},
      privacy: marked,
    };
    expect(placeholdersIn(content)).toEqual([
      'the Amazon link',
      'the author photo',
      'the Instagram profile link',
      'the podcast link',
      'the privacy contact address',
    ]);
  });

  test('finds each marker in the files with its file and line, every social link by its network', () => {
    const sources = {
      'book.yaml': 'title: T\namazon:\n  url: https://a.example\n  placeholder: true\ncover:\n  src: /images/c.svg\n',
      'author.yaml': [
        'name: N',
        'placeholder: true',
        'social:',
        '  - network: Facebook',
        '    url: https://f.example',
        '  - network: LinkedIn',
        '    url: https://l.example',
        '    placeholder: true',
        '',
      ].join('\n'),
      'site.yaml': 'address: https://www.example.com\nplaceholder: true\n',
    };
    expect(locatePlaceholders(sources)).toEqual([
      { name: 'the Amazon link', file: 'content/book.yaml', line: 4 },
      { name: "the author's name and biography", file: 'content/author.yaml', line: 2 },
      { name: 'the LinkedIn profile link', file: 'content/author.yaml', line: 8 },
      { name: "the site's address", file: 'content/site.yaml', line: 2 },
    ]);
  });

  test('finds every one of the nine the sample content ships with', () => {
    const { readFileSync } = jest.requireActual<typeof import('node:fs')>('node:fs');
    const sources = Object.fromEntries(
      placeholderGuide.map((entry) => [entry.file, readFileSync(`content/${entry.file}`, 'utf8')]),
    );
    const names = locatePlaceholders(sources).map((spot) => spot.name);
    expect(names).toEqual(placeholdersIn());
    expect(placeholderGuide).toHaveLength(9);
  });

  test('fails production (named, or the stage-less stack) and only warns another stage', () => {
    expect(placeholderPolicyFor('production')).toBe('fail');
    expect(placeholderPolicyFor(undefined)).toBe('fail');
    expect(placeholderPolicyFor('staging')).toBe('warn');
  });

  test("the report names each placeholder's file and line, and where to read how to replace it", () => {
    const report = placeholderReport([{ name: 'the Amazon link', file: 'content/book.yaml', line: 16 }], 'fail');
    expect(report).toContain("docs/author.md, 'Before launch: your own material'");
    expect(report).toContain('\n  content/book.yaml:16: the Amazon link');
  });
});
