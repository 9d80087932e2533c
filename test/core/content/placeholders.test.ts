import { placeholderWarning, placeholdersIn, type ContentSnapshot } from '../../../core/content/placeholders';

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
    expect(placeholderWarning([])).toBeNull();
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

  test("the build's warning names every placeholder and where to read how to replace it", () => {
    expect(placeholderWarning(['the Amazon link', 'the podcast link'])).toBe(
      "Placeholders still in content/ (docs/author.md, 'Before launch: your own material'): the Amazon link, the podcast link.",
    );
  });
});
