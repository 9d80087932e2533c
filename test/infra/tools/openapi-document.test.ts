import { buildOpenApiDocument } from '../../../infra/tools/openapi-document';
import { invalidEmailExampleMessage } from '../../../core/api/messages';
import { parseCheatSheetRequest } from '../../../core/api/request-schema';
import { openApiChecker } from '../../support/openapi';

const document = buildOpenApiDocument() as any;
const checker = openApiChecker(document);
const save = '/api/cheat-sheet-requests';
const send = '/api/send-cheat-sheet';
const form = '/api/cheat-sheet-form';
const challenge = '/api/cheat-sheet-challenge';
const visit = '/api/visit';
const statusesOf = (route: string, method: string) => Object.keys(document.paths[route][method].responses);
const resolve = (node: any): any => (node?.$ref ? resolve(pointerNode(node.$ref)) : node);
const pointerNode = (pointer: string): any =>
  pointer
    .slice(2)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((node: any, segment) => node[segment], document);

describe('the OpenAPI document', () => {
  test('is OpenAPI 3.1 and describes exactly the five routes', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual([save, send, challenge, form, visit]);
  });

  test("describes the visit beacon as a GIF that is never cached, and another method's 405 with Allow", () => {
    const get = document.paths[visit].get.responses['200'];
    expect(Object.keys(get.content)).toEqual(['image/gif']);
    expect(get.headers['Cache-Control'].schema.const).toBe('no-store');
    const post = document.paths[visit].post.responses['405'];
    expect(post.headers.Allow.schema.const).toBe('GET');
  });

  test('gives the save route 201 and each failure it can answer to a POST, the direct-call refusal and the save limits included', () => {
    expect(statusesOf(save, 'post')).toEqual(['201', '400', '403', '409', '413', '415', '422', '429', '500', '503']);
  });

  test('gives the send route 200 and each failure it can answer to a POST, the caps, the direct-call refusal and SES refusals included', () => {
    expect(statusesOf(send, 'post')).toEqual([
      '200',
      '400',
      '403',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '502',
      '503',
    ]);
  });

  test.each([save, send])('lets a POST to %s carry an optional Idempotency-Key header', (route) => {
    expect(document.paths[route].post.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    );
  });

  test('lets only the send route carry the solved challenge, in X-Cheat-Sheet-Proof', () => {
    const proofHeaders = (route: string) =>
      (document.paths[route].post.parameters as { name: string }[]).filter((p) => p.name === 'X-Cheat-Sheet-Proof');
    expect(proofHeaders(send)).toHaveLength(1);
    expect(proofHeaders(save)).toHaveLength(0);
  });

  test('describes GET on the challenge route, never cached, and 405 for the other methods', () => {
    const item = document.paths[challenge];
    expect(Object.keys(item.get.responses)).toContain('200');
    expect(resolve(item.get.responses['200'].headers['Cache-Control'])).toBeDefined();
    expect(item.post.responses['405']).toBeDefined();
  });

  test.each([save, send, form])('answers every other method on %s with 405 and Allow: POST only', (route) => {
    for (const method of ['get', 'put', 'patch', 'delete', 'options']) {
      expect(statusesOf(route, method)).toEqual(['405']);
      const response = resolve(document.paths[route][method].responses['405']);
      expect(resolve(response.headers.Allow)).toMatchObject({ required: true, schema: { const: 'POST' } });
    }
  });

  test('marks every reply of every route as never cached', () => {
    for (const route of [save, send, form]) {
      for (const operation of Object.values<any>(document.paths[route])) {
        for (const response of Object.values<any>(operation.responses).map(resolve)) {
          expect(resolve(response.headers['Cache-Control'])).toMatchObject({
            required: true,
            schema: { const: 'no-store' },
          });
        }
      }
    }
  });

  test('states the 10 KB body limit and the JSON content type of the request', () => {
    const { requestBody } = document.paths[save].post;

    expect(requestBody.description).toMatch(/at most 10 KB \(10240 bytes\)/);
    expect(Object.keys(requestBody.content)).toEqual(['application/json']);
  });

  test('gives every JSON reply an example, and every example matches its schema', () => {
    let examples = 0;
    for (const route of [save, send]) {
      for (const operation of Object.values<any>(document.paths[route])) {
        for (const [status, reference] of Object.entries<any>(operation.responses)) {
          const media = resolve(reference).content['application/json'];
          const values =
            media.example === undefined ? Object.values<any>(media.examples).map((e) => e.value) : [media.example];
          expect(values.length).toBeGreaterThan(0);
          const validate = checker.schemaAt(media.schema.$ref);
          for (const value of values) {
            examples += 1;
            if (!validate(value))
              throw new Error(`${route} ${status}: ${JSON.stringify(value)} ${JSON.stringify(validate.errors)}`);
          }
        }
      }
    }
    expect(examples).toBeGreaterThan(20);
  });

  test.each([
    ['SaveFailure', ['invalid_request', 'method_not_allowed', 'payload_too_large', 'unsupported_media_type']],
    [
      'SendFailure',
      ['untrusted_origin', 'address_daily_cap_reached', 'sender_not_verified', 'origin_secret_unavailable'],
    ],
  ])("requires a %s body's code, one of the route's failure kinds", (schema, someCodes) => {
    const failure = document.components.schemas[schema];

    expect(failure.required).toContain('code');
    expect(failure.properties.code.enum).toEqual(expect.arrayContaining(someCodes));
  });

  test('gives the save route no code of a failure only the send route has', () => {
    const codes = document.components.schemas.SaveFailure.properties.code.enum;

    expect(codes).not.toContain('address_daily_cap_reached');
    expect(codes).not.toContain('sender_not_verified');
  });

  test("quotes the request schema's own message for a malformed address", () => {
    expect(parseCheatSheetRequest({ name: 'Ada Owner', email: 'ada.example.com' })).toEqual({
      success: false,
      error: invalidEmailExampleMessage,
    });
  });
});

describe('the form route in the document', () => {
  test('answers a POST with 303 or a refusal page: 400, 403, 413, 415, never 404', () => {
    expect(statusesOf(form, 'post')).toEqual(['303', '400', '403', '413', '415']);
  });

  test('redirects only to the pre-rendered result pages', () => {
    const location = resolve(document.paths[form].post.responses['303'].headers.Location);
    expect(location.required).toBe(true);
    expect(location.schema.enum).toEqual([
      '/cheat-sheet/sent',
      '/cheat-sheet/not-confirmed',
      '/cheat-sheet/email-configuration-error',
      '/cheat-sheet/not-sent',
    ]);
  });

  test('takes the form urlencoded, and its example passes the form schema', () => {
    const { content } = document.paths[form].post.requestBody;
    expect(Object.keys(content)).toEqual(['application/x-www-form-urlencoded']);
    const media = content['application/x-www-form-urlencoded'];
    expect(checker.schemaAt(media.schema.$ref)(media.example)).toBe(true);
    expect(checker.schemaAt(media.schema.$ref)({ ...media.example, hasBook: 'yes' })).toBe(false);
  });

  test('gives every refusal an HTML page as its example, naming the reason', () => {
    for (const status of ['400', '403', '413', '415']) {
      const { examples } = resolve(document.paths[form].post.responses[status]).content['text/html'];
      for (const example of Object.values<any>(examples)) {
        expect(example.value).toMatch(/^<!doctype html>/);
        expect(example.value).toContain('<a href="/#download-section">Back to the form</a>');
      }
    }
  });
});

describe("the document's request schema, generated from the one the functions use", () => {
  const validate = checker.schemaAt('#/components/schemas/CheatSheetRequest');
  const valid = { name: 'Ada Owner', email: 'ada@example.com' };
  const longestEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;

  test('has the example request the functions accept', () => {
    const { example } = document.paths[send].post.requestBody.content['application/json'];

    expect(validate(example)).toBe(true);
    expect(parseCheatSheetRequest(example).success).toBe(true);
  });

  // Trimmed values: the document's limits apply after trimming, as it says.
  test.each([
    ['a name of 100 characters and an address of 254', { name: 'N'.repeat(100), email: longestEmail }, true],
    ['unknown keys, which are ignored', { ...valid, cheat_sheet_sent: true }, true],
    ['a name of 101 characters', { ...valid, name: 'N'.repeat(101) }, false],
    ['an empty name', { ...valid, name: '' }, false],
    ['an address of 255 characters', { ...valid, email: `d${longestEmail}` }, false],
    ['an address without a top-level domain', { ...valid, email: 'ada@example' }, false],
    ['an address with a display name', { ...valid, email: 'Ada <ada@example.com>' }, false],
    ['no name', { email: valid.email }, false],
    ['no address', { name: valid.name }, false],
    ['a numeric name', { ...valid, name: 42 }, false],
  ])('agrees with the functions on %s', (_, body, accepted) => {
    expect(parseCheatSheetRequest(body).success).toBe(accepted);
    expect(validate(body)).toBe(accepted);
  });
});
