import { fromHandlerResult, isTextContentType, lambdaContext, toHttpApiEvent } from '../../local/api-gateway-adapter';

const request = {
  method: 'POST',
  url: '/api/send-cheat-sheet?a=1&a=2&b=x',
  headers: {
    host: 'localhost:3000',
    'content-type': 'application/json',
    'user-agent': 'test-agent',
    cookie: 'a=1; b=2',
    'x-forwarded-for': ['1.1.1.1', '2.2.2.2'],
  },
  body: Buffer.from('{"name":"Ada"}'),
  sourceIp: '127.0.0.1',
};

describe('toHttpApiEvent', () => {
  const event = toHttpApiEvent(request, 'POST /api/send-cheat-sheet', new Date('2025-03-12T19:03:58Z'));

  test('builds a payload 2.0 event with the route, path and query', () => {
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/send-cheat-sheet',
      rawPath: '/api/send-cheat-sheet',
      rawQueryString: 'a=1&a=2&b=x',
      queryStringParameters: { a: '1,2', b: 'x' },
      body: '{"name":"Ada"}',
      isBase64Encoded: false,
    });
  });

  test('lower-cases and joins headers, and splits cookies out', () => {
    expect(event.headers).toEqual({
      host: 'localhost:3000',
      'content-type': 'application/json',
      'user-agent': 'test-agent',
      'x-forwarded-for': '1.1.1.1,2.2.2.2',
    });
    expect(event.cookies).toEqual(['a=1', 'b=2']);
  });

  test('fills the request context as API Gateway does', () => {
    expect(event.requestContext).toMatchObject({
      domainName: 'localhost:3000',
      http: {
        method: 'POST',
        path: '/api/send-cheat-sheet',
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'test-agent',
      },
      routeKey: 'POST /api/send-cheat-sheet',
      stage: '$default',
      time: '12/Mar/2025:19:03:58 +0000',
      timeEpoch: Date.parse('2025-03-12T19:03:58Z'),
    });
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('base64-encodes a body that is not text', () => {
    const binary = toHttpApiEvent(
      { ...request, headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0xff, 0x00]) },
      'POST /x',
    );

    expect(binary.isBase64Encoded).toBe(true);
    expect(binary.body).toBe('/wA=');
  });

  test('base64-encodes a urlencoded form, as API Gateway does', () => {
    const event = toHttpApiEvent(
      {
        method: 'POST',
        url: '/api/cheat-sheet-form',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from('name=Jos%C3%A9&hasBook=on'),
        sourceIp: '127.0.0.1',
      },
      'POST /api/cheat-sheet-form',
    );

    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body!, 'base64').toString('utf8')).toBe('name=Jos%C3%A9&hasBook=on');
  });

  test('leaves out the body when there is none', () => {
    const empty = toHttpApiEvent({ ...request, body: Buffer.alloc(0) }, 'POST /x');

    expect(empty).not.toHaveProperty('body');
    expect(empty.isBase64Encoded).toBe(false);
  });
});

describe('isTextContentType', () => {
  test.each([
    ['application/json; charset=utf-8', true],
    ['text/plain', true],
    ['application/problem+json', true],
    ['application/x-www-form-urlencoded', false],
    ['application/octet-stream', false],
    [undefined, false],
  ])('%s → %s', (contentType, expected) => {
    expect(isTextContentType(contentType)).toBe(expected);
  });
});

describe('fromHandlerResult', () => {
  test('keeps status, headers and body of a structured result', () => {
    const response = fromHandlerResult({
      statusCode: 429,
      headers: { 'Content-Type': 'application/json' },
      body: '{"success":false,"error":"x"}',
    });

    expect(response.statusCode).toBe(429);
    expect(response.headers).toEqual({ 'content-type': 'application/json' });
    expect(response.body.toString()).toBe('{"success":false,"error":"x"}');
  });

  test('decodes a base64 body and turns cookies into set-cookie', () => {
    const response = fromHandlerResult({ statusCode: 200, body: 'aGk=', isBase64Encoded: true, cookies: ['a=1'] });

    expect(response.body.toString()).toBe('hi');
    expect(response.headers['set-cookie']).toEqual(['a=1']);
  });

  test('serialises a bare value as a 200 JSON reply', () => {
    const response = fromHandlerResult({ ok: true });

    expect(response).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"ok":true}'),
    });
  });
});

describe('lambdaContext', () => {
  test('names the function and gives each invocation its own request id', () => {
    const [first, second] = [lambdaContext('save-request', 10), lambdaContext('save-request', 10)];

    expect(first.functionName).toBe('save-request');
    expect(first.invokedFunctionArn).toContain('function:save-request');
    expect(first.awsRequestId).not.toBe(second.awsRequestId);
  });

  test("counts the time left down from the function's own timeout, as Lambda does", () => {
    const context = lambdaContext('send-cheat-sheet', 20);
    const left = context.getRemainingTimeInMillis();
    expect(left).toBeGreaterThan(19_000);
    expect(left).toBeLessThanOrEqual(20_000);
  });
});
