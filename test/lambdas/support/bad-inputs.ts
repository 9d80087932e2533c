/**
 * Requests both routes must refuse with a 4xx and a clear `error`, storing and sending nothing:
 * malformed JSON, wrong content types, missing, empty, mistyped and over-long fields, malformed
 * e-mails (header injection included) and oversized bodies.
 */

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { base64Event, postEvent } from './http-api-events';

export interface BadInput {
  readonly description: string;
  readonly status: 400 | 413 | 415;
  readonly event: (route: string) => APIGatewayProxyEventV2;
}

const valid = { name: 'Ada Owner', email: 'ada@example.com' };
const json = (description: string, body: unknown, status: BadInput['status'] = 400): BadInput => ({
  description,
  status,
  event: (route) => postEvent(route, body),
});
const raw = (description: string, text: string, status: BadInput['status'] = 400): BadInput => ({
  description,
  status,
  event: (route) => postEvent(route, text),
});
const typed = (description: string, contentType: string | null, body: string = JSON.stringify(valid)): BadInput => ({
  description,
  status: 415,
  event: (route) => postEvent(route, body, { contentType }),
});

export const badInputs: readonly BadInput[] = [
  raw('malformed JSON', '{name: Ada}'),
  raw('truncated JSON', '{"name":"Ada","email":"ada@example.com"'),
  raw('an empty body', ''),
  raw('a body of only spaces', '   '),
  json('null', null),
  json('an array', [valid]),
  json('a string', 'ada@example.com'),
  json('a number', 42),
  json('an empty object', {}),
  json('no name', { email: valid.email }),
  json('no email', { name: valid.name }),
  json('an empty name', { ...valid, name: '' }),
  json('a name of spaces', { ...valid, name: '    ' }),
  json('a name of only control characters', { ...valid, name: '\r\n\t\u0000' }),
  json('a name of 101 characters', { ...valid, name: 'A'.repeat(101) }),
  json('a numeric name', { ...valid, name: 12345 }),
  json('a null name', { ...valid, name: null }),
  json('a name that is an array', { ...valid, name: ['Ada'] }),
  json('a name that is an object', { ...valid, name: { first: 'Ada' } }),
  json('a name with a domain-like word a mail client would link', { ...valid, name: 'Ada visit evil.example' }),
  json('a name with a web address', { ...valid, name: 'Ada https://evil.test/x' }),
  json('a name with www.', { ...valid, name: 'Ada www.evil' }),
  json('a name with an e-mail address', { ...valid, name: 'Ada ada@evil.test' }),
  json('an empty email', { ...valid, email: '' }),
  json('an email of spaces', { ...valid, email: '   ' }),
  json('an email without @', { ...valid, email: 'ada.example.com' }),
  json('an email without a domain', { ...valid, email: 'ada@' }),
  json('an email without a local part', { ...valid, email: '@example.com' }),
  json('an email without a top-level domain', { ...valid, email: 'ada@example' }),
  json('an email with a space', { ...valid, email: 'ada owner@example.com' }),
  json('an email with a CRLF header injection', { ...valid, email: 'ada@example.com\r\nBcc: victim@example.com' }),
  json('an email with a display name', { ...valid, email: 'Ada <ada@example.com>' }),
  json('two email addresses', { ...valid, email: 'ada@example.com,eve@example.com' }),
  // Well-formed (labels of at most 63 characters), just one character too long.
  json('an email of 255 characters', {
    ...valid,
    email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`,
  }),
  json('a numeric email', { ...valid, email: 42 }),
  json('a body over 10 KB', { ...valid, padding: 'x'.repeat(10 * 1024) }, 413),
  typed('no content type', null),
  typed('a text/plain content type', 'text/plain'),
  typed('a form content type', 'application/x-www-form-urlencoded', 'name=Ada&email=ada%40example.com'),
  typed('a multipart content type', 'multipart/form-data; boundary=x'),
  typed('a JSON content type with a Latin-1 charset', 'application/json; charset=iso-8859-1'),
  {
    description: 'a base64-encoded body of malformed JSON',
    status: 400,
    event: (route) => base64Event(postEvent(route, '{"name":')),
  },
  {
    description: 'a body that is not UTF-8',
    status: 400,
    event: (route) => ({
      ...postEvent(route, ''),
      // Latin-1 'é' (0xE9) where UTF-8 is required; base64 keeps the raw byte intact.
      body: Buffer.concat([
        Buffer.from('{"name":"Ren'),
        Buffer.from([0xe9]),
        Buffer.from('","email":"rene@example.com"}'),
      ]).toString('base64'),
      isBase64Encoded: true,
    }),
  },
];
