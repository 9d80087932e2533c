import { cleanStoredName, greetingNameOf, maxGreetingNameLength } from '../../../core/documents/greeting-name';
import { lureNames, realNames } from '../../support/name-lures';

describe('greetingNameOf', () => {
  test.each(realNames)('greets %p by name', (name) => {
    expect(greetingNameOf(name)).toBe(name);
  });

  test.each(['J.R. Tolkien', 'Martin Luther King Jr.', 'D’Angelo', 'Zoe\u0308 Ng', 'Анна Каренина', 'محمد علي'])(
    'also greets %p: initials, a closing period, the typographic apostrophe, combining marks, other scripts',
    (name) => {
      expect(greetingNameOf(name)).toBe(name);
    },
  );

  test('greets the name without the spaces around it', () => {
    expect(greetingNameOf('  Ada Lovelace ')).toBe('Ada Lovelace');
  });

  test.each(lureNames)('does not greet the lure %p', (name) => {
    expect(greetingNameOf(name)).toBeUndefined();
  });

  test.each([
    ['a host name with any top-level domain', 'Jane example.xyz'],
    ['a host name without a space after its first part', 'mail.evil'],
    ['a digit', 'Agent 47'],
    ['an @', 'ada@example'],
    ['a colon', 'Re: Ada'],
    ['a slash', 'Ada/Grace'],
    ['a zero-width joiner', 'Ada\u200DLovelace'],
    ['a soft hyphen', 'Ada\u00ADLovelace'],
    ['a left-to-right mark', 'Ada\u200E'],
    ['a tab', 'Ada\tLovelace'],
    ['a one-dot leader that looks like a period', 'evil\u2024com'],
    ['a full-width period', 'evil\uFF0Ecom'],
    ['a leading hyphen', '-Ada'],
    ['a trailing apostrophe', "Ada'"],
    ['two spaces between words', 'Ada  Lovelace'],
    ['a period that follows no letter', 'Ada .Lovelace'],
    ['only spaces', '   '],
    ['an emoji', 'Ada 🎉'],
  ])('does not greet a name with %s', (_, name) => {
    expect(greetingNameOf(name)).toBeUndefined();
  });

  test(`greets ${maxGreetingNameLength} characters, not one more (counted as characters, not UTF-16 units)`, () => {
    expect(greetingNameOf('a'.repeat(maxGreetingNameLength))).toBeDefined();
    expect(greetingNameOf('a'.repeat(maxGreetingNameLength + 1))).toBeUndefined();
    expect(greetingNameOf('𝒜'.repeat(maxGreetingNameLength))).toBeDefined();
  });
});

describe('cleanStoredName', () => {
  test('removes format characters: bidi overrides, zero-width characters, the soft hyphen', () => {
    expect(cleanStoredName('\u202Emoc.lapyap')).toBe('moc.lapyap');
    expect(cleanStoredName('evil\u200B.com')).toBe('evil.com');
    expect(cleanStoredName('Ada\u00AD\uFEFFLovelace')).toBe('AdaLovelace');
  });

  test('turns line breaks and tabs into spaces and removes other control characters', () => {
    expect(cleanStoredName('Ada\r\nLovelace\tKing\u0000\u0007')).toBe('Ada Lovelace King');
  });

  test('keeps the zero-width non-joiner and joiner that Persian and Indic names need', () => {
    expect(cleanStoredName('می\u200Cخواهم')).toBe('می\u200Cخواهم');
    expect(cleanStoredName('क्\u200Dष')).toBe('क्\u200Dष');
    expect(cleanStoredName('श्\u200Cरी')).toBe('श्\u200Cरी');
  });

  test('keeps emoji sequences whole: a family, a profession, a flag with tags, skin tones', () => {
    for (const emoji of [
      '👨\u200D👩\u200D👧',
      '👩🏽\u200D💼',
      '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
      '❤️',
    ]) {
      expect(cleanStoredName(`Ada ${emoji}`)).toBe(`Ada ${emoji}`);
    }
  });

  test('removes tag characters outside an emoji flag', () => {
    expect(cleanStoredName('Ada\u{E0041}\u{E007F}')).toBe('Ada');
  });

  test('keeps everything else as typed', () => {
    expect(cleanStoredName('Call +1 800 555 0100 re: your locked account')).toBe(
      'Call +1 800 555 0100 re: your locked account',
    );
    expect(cleanStoredName("Zoë O'Brien-Smith")).toBe("Zoë O'Brien-Smith");
  });
});
