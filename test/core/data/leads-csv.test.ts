/** The CSV itself: RFC 4180 quoting and OWASP's formula neutralisation, on items built in the test. */

import { leadsCsv, neutraliseFormula } from '../../../core/data/leads-csv';
import type { CheatSheetRequestItem } from '../../../core/data/tables';

const request = (name: string, overrides: Partial<CheatSheetRequestItem> = {}): CheatSheetRequestItem => ({
  id: `id-${name}`,
  name,
  email: 'reader@example.com',
  requested_at: '2025-03-01T10:00:00.000Z',
  cheat_sheet_sent: false,
  ...overrides,
});

test.each(['=SUM(1,2)', '+44 20 7946 0000', '-2+3', '@SUM(A1)', '\tTabbed', '\rReturned'])(
  'a cell starting like a formula (%j) gets a single quote before its whole text',
  (cell) => {
    expect(neutraliseFormula(cell)).toBe(`'${cell}`);
  },
);

test('a cell with a formula character later on is left as it is', () => {
  expect(neutraliseFormula('Mary-Jane = Smith')).toBe('Mary-Jane = Smith');
});

test('the header comes first and every line ends with CRLF', () => {
  const csv = leadsCsv([request('Ada')]);
  expect(csv).toBe(
    `${'name,email,requested_at,cheat_sheet_sent,sent_at,delivery_status,status_at,consent_at,consent_statement,mailing_list,mailing_list_statement,privacy_version,form_version'}\r\nAda,reader@example.com,2025-03-01T10:00:00.000Z,false,,,,,,,,,\r\n`,
  );
});

test('a name with a comma and an apostrophe is quoted whole', () => {
  expect(leadsCsv([request("O'Brien, Liam")]).split('\r\n')[1]).toMatch(/^"O'Brien, Liam",/);
});

test('double quotes in a name are doubled inside a quoted cell', () => {
  expect(leadsCsv([request('Ada "The Countess" Lovelace')]).split('\r\n')[1]).toMatch(
    /^"Ada ""The Countess"" Lovelace",/,
  );
});

test('a sent request carries true and its sent_at', () => {
  const csv = leadsCsv([request('Ada', { cheat_sheet_sent: true, sent_at: '2025-03-01T10:00:02.000Z' })]);
  expect(csv.split('\r\n')[1]).toBe(
    'Ada,reader@example.com,2025-03-01T10:00:00.000Z,true,2025-03-01T10:00:02.000Z,,,,,,,,',
  );
});

test('after the five first columns: the delivery status and its time, then when and to what the reader consented', () => {
  const csv = leadsCsv([
    request('Ada', {
      cheat_sheet_sent: true,
      sent_at: '2025-03-01T10:00:02.000Z',
      delivery_status: 'delivered',
      status_at: '2025-03-01T10:00:05.000Z',
      consent: { at: '2025-03-01T09:59:58.000Z', statement: 'I confirm that I have purchased the book' },
    }),
  ]);
  expect(csv.split('\r\n')[1]).toBe(
    'Ada,reader@example.com,2025-03-01T10:00:00.000Z,true,2025-03-01T10:00:02.000Z,delivered,2025-03-01T10:00:05.000Z,2025-03-01T09:59:58.000Z,I confirm that I have purchased the book,,,,',
  );
});

test.each([
  [true, 'true'],
  [false, 'false'],
])(
  'after the contract columns: the answer to the mailing-list box (joined %s), its words and the versions',
  (joined, cell) => {
    const csv = leadsCsv([
      request('Ada', {
        consent: {
          at: '2025-03-01T09:59:58.000Z',
          statement: 'I confirm that I have purchased the book',
          privacy_version: '2026-11-27',
          form_version: '2',
          mailing_list: { joined, statement: "Add me to Sam's list" },
        },
      }),
    ]);
    expect(csv.split('\r\n')[1]!.split(',').slice(-4)).toEqual([cell, "Add me to Sam's list", '2026-11-27', '2']);
  },
);

test('the mailing-list words are neutralised like any cell', () => {
  const csv = leadsCsv([
    request('Ada', { consent: { at: '2025-03-01T09:59:58.000Z', mailing_list: { joined: true, statement: '=1+1' } } }),
  ]);
  expect(csv.split('\r\n')[1]).toContain(",true,'=1+1,");
});

test('a consent statement that starts like a formula is neutralised like any cell', () => {
  const csv = leadsCsv([request('Ada', { consent: { at: '2025-03-01T09:59:58.000Z', statement: '=1+1' } })]);
  expect(csv.split('\r\n')[1]!.endsWith(",'=1+1,,,,")).toBe(true);
});
