import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ProductError } from '../../../lambdas/runtime/errors';
import { maxBodyBytes } from '../../../core/api/request-limits';
import { productRoutes } from '../../../core/api/catalogue/routes';
import { parseCheatSheetRequestBody, parseJsonBody, readApiRequest } from '../../../lambdas/http/http-request';
import { postEvent, saveRoute } from '../support/http-api-events';

const event = (body: string | undefined, headers: Record<string, string>, isBase64Encoded = false) =>
  readApiRequest({ headers, body, isBase64Encoded } as APIGatewayProxyEventV2);
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

    expect(() => parseJsonBody(event(body, json))).toThrow(expect.objectContaining({ kind: 'payloadTooLarge' }));
  });

  test('refuses an oversized base64 body', () => {
    const body = Buffer.alloc(maxBodyBytes + 1, 0x20).toString('base64');

    expect(() => parseJsonBody(event(body, json, true))).toThrow(expect.objectContaining({ kind: 'payloadTooLarge' }));
  });

  test.each([undefined, 'text/plain', 'application/jsonx', 'application/json; charset=utf-16'])(
    'refuses the content type %s',
    (contentType) => {
      const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};

      expect(() => parseJsonBody(event('{}', headers))).toThrow(
        expect.objectContaining({ kind: 'unsupportedMediaType' }),
      );
    },
  );

  test.each([
    ['no body', undefined],
    ['malformed JSON', '{"name":'],
  ])('refuses %s as an invalid request', (_, body) => {
    expect(() => parseJsonBody(event(body, json))).toThrow(expect.objectContaining({ kind: 'invalidRequest' }));
  });
});

describe('parseCheatSheetRequestBody', () => {
  const valid = { name: 'Ada', email: 'ada@example.com' };

  test('returns the validated request of a POST', () => {
    expect(parseCheatSheetRequestBody(readApiRequest(postEvent(saveRoute, valid)), productRoutes.saveRequest)).toEqual(
      valid,
    );
  });

  test.each(['GET', 'PUT', 'DELETE', 'HEAD'])('refuses %s as a method that is not allowed', (method) => {
    const event = postEvent(saveRoute, valid);
    const other = {
      ...event,
      requestContext: { ...event.requestContext, http: { ...event.requestContext.http, method } },
    };
    expect(() => parseCheatSheetRequestBody(readApiRequest(other), productRoutes.saveRequest)).toThrow(
      expect.objectContaining({ kind: 'methodNotAllowed' }),
    );
  });

  test('refuses an invalid body with the schema message', () => {
    expect(() =>
      parseCheatSheetRequestBody(readApiRequest(postEvent(saveRoute, { name: 'Ada' })), productRoutes.saveRequest),
    ).toThrow(new ProductError('invalidRequest', 'Please enter your email address.'));
  });
});

describe('readApiRequest', () => {
  const headers = {
    'Content-Type': 'application/json',
    'Sec-Fetch-Site': ' Same-Origin ',
    'User-Agent': 'Mozilla/5.0',
    'Idempotency-Key': ' 7c1f3a52-2f5e-4d7e-9d61-0f5c8a2b9e10 ',
    'CloudFront-Viewer-Address': '198.51.100.10:46532',
    'X-Origin-Secret': 'secret',
  };

  test('reads every header the routes use once, whatever the letter case it arrived in', () => {
    const request = readApiRequest(postEvent(saveRoute, {}, { sourceIp: '203.0.113.7', headers }));

    expect(request).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      fetchSite: 'same-origin',
      userAgent: 'Mozilla/5.0',
      idempotencyKey: '7c1f3a52-2f5e-4d7e-9d61-0f5c8a2b9e10',
      client: { sourceIp: '203.0.113.7', viewerAddress: '198.51.100.10:46532', originSecret: 'secret' },
    });
  });

  test.each([
    ['absent', {}],
    ['blank', { 'idempotency-key': '  ' }],
  ])('has no idempotency key when the header is %s', (_, extra) => {
    expect(readApiRequest(postEvent(saveRoute, {}, { headers: extra }))).not.toHaveProperty('idempotencyKey');
  });

  test('keeps the body as API Gateway passed it, decoded only when parsed', () => {
    const encoded = Buffer.from('{"name":"Zoë"}').toString('base64');

    expect(readApiRequest({ body: encoded, isBase64Encoded: true } as APIGatewayProxyEventV2).body).toEqual({
      text: encoded,
      isBase64Encoded: true,
    });
  });

  test('never throws, even on an event with nothing in it', () => {
    expect(readApiRequest({} as APIGatewayProxyEventV2)).toEqual({
      client: {},
      body: { text: '', isBase64Encoded: false },
    });
  });
});
