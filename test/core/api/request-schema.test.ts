import { isHoneypotFilled, parseCheatSheetRequest, toSingleLine } from '../../../core/api/request-schema';

describe('parseCheatSheetRequest', () => {
  test('accepts a name and an e-mail address', () => {
    expect(parseCheatSheetRequest({ name: 'Ada Owner', email: 'ada@example.com' })).toEqual({
      success: true,
      data: { name: 'Ada Owner', email: 'ada@example.com' },
    });
  });

  test('trims both fields and lower-cases the address', () => {
    expect(parseCheatSheetRequest({ name: '  Ada  ', email: ' Ada@Example.COM ' })).toEqual({
      success: true,
      data: { name: 'Ada', email: 'ada@example.com' },
    });
  });

  test('drops unknown keys', () => {
    const result = parseCheatSheetRequest({ name: 'Ada', email: 'ada@example.com', cheat_sheet_sent: true });

    expect(result).toEqual({ success: true, data: { name: 'Ada', email: 'ada@example.com' } });
  });

  test('turns line breaks and other control characters in the name into single spaces', () => {
    const result = parseCheatSheetRequest({ name: 'Ada\r\nBcc: Eve\u0000\u2028Owner', email: 'ada@example.com' });

    expect(result).toEqual({ success: true, data: { name: 'Ada Bcc: Eve Owner', email: 'ada@example.com' } });
  });

  test('keeps names in any script, with accents and emoji', () => {
    const name = 'Zoë Ñúñez 李小龍 👩‍💼';

    expect(parseCheatSheetRequest({ name, email: 'zoe@example.com' })).toMatchObject({ data: { name } });
  });

  test.each([
    'J.R. Smith',
    'Mr.Smith',
    "O'Brien",
    'José Núñez',
    'Dr. Ada Lovelace',
    'St.John Rivers',
    'Ana-María López-García',
    'Mr.De Souza',
    'Mrs. Ly',
    'Ada Co.',
    'Comfort Obi',
  ])('accepts the name %p, dots, apostrophes and accents included', (name) => {
    expect(parseCheatSheetRequest({ name, email: 'ada@example.com' })).toEqual({
      success: true,
      data: { name, email: 'ada@example.com' },
    });
  });

  test.each([
    'visit evil.example',
    'Ada from EVIL.COM',
    'bit.ly/free-stuff',
    'Ada www.evil',
    'https://evil',
    'Ada ftp://files',
    'ada@evil',
    'Ada evil-site.net',
    'Ada evil.io!',
    'Ada evil。com',
  ])('refuses the link-like name %p: just your name, please', (name) => {
    expect(parseCheatSheetRequest({ name, email: 'ada@example.com' })).toEqual({
      success: false,
      error: 'Please enter just your name.',
    });
  });

  test.each([
    ['a lone high surrogate', 'Ada \ud800'],
    ['a lone low surrogate', '\udc00Ada'],
    ['a low surrogate before its high one', 'Ada \ude00\ud83d'],
  ])('refuses a name holding %s: it is no character', (_, name) => {
    expect(parseCheatSheetRequest({ name, email: 'ada@example.com' })).toEqual({
      success: false,
      error: 'Name must be text.',
    });
  });

  test('keeps a surrogate pair: a character beyond the first plane', () => {
    expect(parseCheatSheetRequest({ name: 'Ada \ud83d\ude00', email: 'ada@example.com' })).toMatchObject({
      data: { name: 'Ada 😀' },
    });
  });

  test('accepts a local part of 64 characters and labels of 63, the most SMTP and DNS allow', () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.com`;

    expect(parseCheatSheetRequest({ name: 'Ada', email })).toEqual({ success: true, data: { name: 'Ada', email } });
  });

  test.each([
    [`${'a'.repeat(65)}@example.com`, 'The part of the email address before the @ must be at most 64 characters.'],
    [
      `ada@${'b'.repeat(64)}.com`,
      'Each dot-separated part of the email address after the @ must be at most 63 characters.',
    ],
    [
      `ada@mail.${'b'.repeat(64)}.example.com`,
      'Each dot-separated part of the email address after the @ must be at most 63 characters.',
    ],
  ])('refuses %p, which no mail server could deliver', (email, error) => {
    expect(parseCheatSheetRequest({ name: 'Ada', email })).toEqual({ success: false, error });
  });

  test('counts the name limit after trimming', () => {
    expect(parseCheatSheetRequest({ name: `  ${'A'.repeat(100)}  `, email: 'ada@example.com' }).success).toBe(true);
  });

  test.each([
    [{ email: 'ada@example.com' }, 'Please enter your name.'],
    [{ name: ' ', email: 'ada@example.com' }, 'Please enter your name.'],
    [{ name: 'A'.repeat(101), email: 'ada@example.com' }, 'Name must be at most 100 characters.'],
    [{ name: 7, email: 'ada@example.com' }, 'Name must be text.'],
    [{ name: 'Ada' }, 'Please enter your email address.'],
    [{ name: 'Ada', email: '' }, 'Please enter your email address.'],
    [{ name: 'Ada', email: 'ada' }, 'Please enter a valid email address.'],
    [{ name: 'Ada', email: `${'a'.repeat(250)}@b.co` }, 'Email must be at most 254 characters.'],
    [null, 'The request body must be a JSON object with a name and an email.'],
    [{ name: 'Ada', email: 'ada@example.com', website: 7 }, 'Website must be text.'],
    [{ name: 'Ada', email: 'ada@example.com', website: 'w'.repeat(2049) }, 'Website must be at most 2048 characters.'],
  ])('explains what is wrong with %j', (body, message) => {
    expect(parseCheatSheetRequest(body)).toEqual({ success: false, error: message });
  });
});

describe('the honeypot field, website', () => {
  const parsed = (website: unknown) => {
    const result = parseCheatSheetRequest({ name: 'Ada', email: 'ada@example.com', website });
    if (!result.success) throw new Error(result.error);
    return result.data;
  };

  test('is optional: a request without it is a person', () => {
    const result = parseCheatSheetRequest({ name: 'Ada', email: 'ada@example.com' });

    expect(result.success && isHoneypotFilled(result.data)).toBe(false);
  });

  test('empty or blank, is a person', () => {
    expect(isHoneypotFilled(parsed(''))).toBe(false);
    expect(isHoneypotFilled(parsed(' \t '))).toBe(false);
  });

  test('holding anything, is a script', () => {
    expect(isHoneypotFilled(parsed('https://spam.example/'))).toBe(true);
    expect(isHoneypotFilled(parsed('x'))).toBe(true);
  });
});

describe('toSingleLine', () => {
  test('collapses runs of whitespace and control characters into one space', () => {
    expect(toSingleLine(' a \t\r\n\u0085 b\u0007c ')).toBe('a b c');
  });
});
