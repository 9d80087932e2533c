import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import {
  InvalidRequestError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../../../lambdas/shared/errors';
import { maxBodyBytes } from '../../../core/api/request-limits';
import { parseCheatSheetRequestEvent, parseJsonBody } from '../../../lambdas/shared/http-request';
import { postEvent, saveRoute } from '../support/http-api-events';

const event = (body: string | undefined, headers: Record<string, string>, isBase64Encoded = false) =>
  ({ headers, body, isBase64Encoded }) as APIGatewayProxyEventV2;
const json = { 'content-type': 'application/json' };

describe('parseJsonBody', () => {
  test('returns the decoded JSON', () => {
    expect(parseJsonBody(event('{"name":"Ada"}', json))).toEqual({ name: 'Ada' });
  });

  test('decodes a base64-encoded body', () => {
    const body = Buffer.from('{"name":"Zoë"}').toString('base64');

    expect(parseJsonBody(event(body, json, true))).toEqual({ name: 'Zoë' });
  });

  test('finds the content type whatever the letter case of the header and the value', () => {
    expect(parseJsonBody(event('{}', { 'Content-Type': 'Application/JSON; Charset="UTF-8"' }))).toEqual({});
  });

  test('accepts a body of exactly 10 KB', () => {
    const body = JSON.stringify({ padding: 'x'.repeat(maxBodyBytes - 14) });
    expect(Buffer.byteLength(body)).toBe(maxBodyBytes);

    expect(parseJsonBody(event(body, json))).toHaveProperty('padding');
  });

  test('refuses a body one byte over 10 KB, counted in bytes, not characters', () => {
    const body = JSON.stringify({ padding: `x${'é'.repeat((maxBodyBytes - 14) / 2)}` });
    expect(body.length).toBeLessThan(maxBodyBytes);
    expect(Buffer.byteLength(body)).toBe(maxBodyBytes + 1);

    expect(() => parseJsonBody(event(body, json))).toThrow(PayloadTooLargeError);
  });

  test('refuses an oversized base64 body', () => {
    const body = Buffer.alloc(maxBodyBytes + 1, 0x20).toString('base64');

    expect(() => parseJsonBody(event(body, json, true))).toThrow(PayloadTooLargeError);
  });

  test.each([undefined, 'text/plain', 'application/jsonx', 'application/json; charset=utf-16'])(
    'refuses the content type %s',
    (contentType) => {
      const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};

      expect(() => parseJsonBody(event('{}', headers))).toThrow(UnsupportedMediaTypeError);
    },
  );

  test.each([
    ['no body', undefined],
    ['malformed JSON', '{"name":'],
  ])('refuses %s as an invalid request', (_, body) => {
    expect(() => parseJsonBody(event(body, json))).toThrow(InvalidRequestError);
  });
});

describe('parseCheatSheetRequestEvent', () => {
  const valid = { name: 'Ada', email: 'ada@example.com' };

  test('returns the validated request of a POST', () => {
    expect(parseCheatSheetRequestEvent(postEvent(saveRoute, valid))).toEqual(valid);
  });

  test.each(['GET', 'PUT', 'DELETE', 'HEAD'])('refuses %s as a method that is not allowed', (method) => {
    const event = postEvent(saveRoute, valid);
    const other = {
      ...event,
      requestContext: { ...event.requestContext, http: { ...event.requestContext.http, method } },
    };
    expect(() => parseCheatSheetRequestEvent(other)).toThrow(MethodNotAllowedError);
  });

  test('refuses an invalid body with the schema message', () => {
    expect(() => parseCheatSheetRequestEvent(postEvent(saveRoute, { name: 'Ada' }))).toThrow(
      new InvalidRequestError('Please enter your email address.'),
    );
  });
});
