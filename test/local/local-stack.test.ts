import { postJson } from '../support/post-json';
/** The whole local stack in this process, on free ports, serving a fixture site. */

import { securityHeaders } from '../../infra/security-headers';
import { startLocalStack, type LocalStack } from '../../local/local-stack';
import { hashedAssetsCacheControl, pagesCacheControl } from '../../infra/cache-policy';
import { cheatSheetPdfForTests, stackStartTimeoutMs } from '../support/cheat-sheet-pdf';
import { rawRequest } from './support/raw-request';
import { createSiteFixture, type SiteFixture } from './support/site-fixture';
import { expectDocumentedResponse } from '../support/openapi';

let site: SiteFixture;
let stack: LocalStack;

// Starting the emulators and building the PDF (its fonts subset) takes seconds on a busy machine.
beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true'; // the functions' metrics are tested in test/lambdas
  site = await createSiteFixture();
  stack = await startLocalStack({ siteDir: site.siteDir, cheatSheetPdf: await cheatSheetPdfForTests() });
}, stackStartTimeoutMs);
afterAll(async () => {
  await stack?.stop();
  await site?.remove();
});

const url = (path: string) => new URL(path, stack.urls.site).href;

function expectSecurityHeaders(headers: Headers) {
  for (const [name, value] of Object.entries(securityHeaders)) expect(headers.get(name)).toBe(value);
}

describe('the local stack', () => {
  test('reports its URLs as the contract prints them, with the real ports', () => {
    expect(stack.urls).toEqual({
      site: `http://localhost:${stack.ports.site}/`,
      mail: `http://localhost:${stack.ports.mail}/`,
      dynamodb: `http://localhost:${stack.ports.dynamodb}`,
      s3: `http://localhost:${stack.ports.s3}`,
    });
    expect(Object.values(stack.ports).every((port) => port > 0)).toBe(true);
  });

  test("serves the landing page's text at /", async () => {
    const response = await fetch(stack.urls.site);

    expect(response.status).toBe(200);
    expect(await response.text()).toContain(site.landingText);
    expect(response.headers.get('cache-control')).toBe(pagesCacheControl);
  });

  test('answers an unknown path with the not-found page and status 404', async () => {
    const response = await fetch(url('/no/such/page'));

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain(site.notFoundText);
  });

  test('serves hashed assets with a year-long immutable cache', async () => {
    const response = await fetch(url(site.assetPath));

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(hashedAssetsCacheControl);
    expect(await response.text()).toBe(site.assetBody);
  });

  test('answers HEAD with the headers and no body', async () => {
    const response = await rawRequest(stack.urls.site, '/', { method: 'HEAD' });

    expect(response.status).toBe(200);
    expect(Number(response.headers['content-length'])).toBeGreaterThan(0);
    expect(response.body).toBe('');
  });

  test('never serves a file outside the site', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt']) {
      const response = await rawRequest(stack.urls.site, path);

      expect(response.status).toBe(404);
      expect(response.body).not.toContain('outside the site');
    }
  });

  test.each(['/', '/missing', '/assets/index-Ab12Cd34.js', '/api/cheat-sheet-requests'])(
    'sends the security headers with %s',
    async (path) => {
      const response = await fetch(url(path), path.startsWith('/api') ? { method: 'POST' } : {});

      expectSecurityHeaders(response.headers);
    },
  );

  test('saves a request through POST /api/cheat-sheet-requests: 201 with an id', async () => {
    const response = await postJson(new URL('/api/cheat-sheet-requests', stack.urls.site), {
      name: 'Ada',
      email: 'ada.stack@example.com',
    });

    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ id: expect.any(String) });
  });

  test('sends the cheat sheet through POST /api/send-cheat-sheet, captured by the mail emulator', async () => {
    const response = await postJson(new URL('/api/send-cheat-sheet', stack.urls.site), {
      name: 'Ada',
      email: 'ada.mail@example.com',
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, message: expect.any(String) });
    const store = (await (await fetch(new URL('store', stack.urls.mail))).json()) as {
      emails: { destination: { to: string[] } }[];
    };
    expect(store.emails.some((email) => email.destination.to.includes('ada.mail@example.com'))).toBe(true);
  });

  test('takes the form as a browser posts it without script: 303 to the result page, the cheat sheet sent', async () => {
    const response = await fetch(url('/api/cheat-sheet-form'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ name: 'Ada', email: 'ada.form.stack@example.com', hasBook: 'on' }).toString(),
      redirect: 'manual',
    });
    await expectDocumentedResponse('POST', response);

    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/cheat-sheet/sent');
    expectSecurityHeaders(response.headers);
    const store = (await (await fetch(new URL('store', stack.urls.mail))).json()) as {
      emails: { destination: { to: string[] } }[];
    };
    expect(store.emails.some((email) => email.destination.to.includes('ada.form.stack@example.com'))).toBe(true);
  });

  test("passes the form route's refusal page through unchanged", async () => {
    const response = await fetch(url('/api/cheat-sheet-form'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=&email=ada%40example.com&hasBook=on',
      redirect: 'manual',
    });
    await expectDocumentedResponse('POST', response);

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<p>Please enter your name.</p>');
  });

  test("passes an API error's status and JSON through unchanged", async () => {
    const response = await postJson(new URL('/api/cheat-sheet-requests', stack.urls.site), {
      name: '',
      email: 'ada@example.com',
    });

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe(JSON.stringify({ error: 'Please enter your name.', code: 'invalid_request' }));
  });

  test("passes the send route's 429 through unchanged", async () => {
    const visitor = { name: 'Ada', email: 'ada.capped@example.com' };
    for (let sent = 0; sent < 3; sent += 1) await postJson(new URL('/api/send-cheat-sheet', stack.urls.site), visitor);

    const response = await postJson(new URL('/api/send-cheat-sheet', stack.urls.site), visitor);

    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({
      success: false,
      error: expect.stringMatching(/24 hours/),
      code: 'address_daily_cap_reached',
    });
  });

  test.each([
    ['/api/cheat-sheet-requests', 'GET', {}],
    ['/api/send-cheat-sheet', 'GET', { success: false }],
    ['/api/send-cheat-sheet', 'PUT', { success: false }],
    ['/api/cheat-sheet-requests', 'DELETE', {}],
  ])('answers %s with %s as 405 JSON in the route’s error shape, never 404', async (path, method, shape) => {
    const response = await fetch(url(path), { method });

    await expectDocumentedResponse(method, response);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toEqual({
      ...shape,
      error: expect.stringContaining('with POST'),
      code: 'method_not_allowed',
    });
  });

  test.each([
    ['POST', '/api/unknown'],
    ['GET', '/api/unknown'],
    ['GET', '/api'],
  ])(
    'answers %s %s, a path the API does not have, with the not-found page and 404, as CloudFront does',
    async (method, path) => {
      const response = await fetch(url(path), { method });

      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain(site.notFoundText);
    },
  );

  test('refuses a request body over 1 MB before reading it all', async () => {
    const response = await fetch(url('/api/cheat-sheet-requests'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(1024 * 1024 + 1),
    });

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: expect.any(String), code: 'payload_too_large' });
  });

  test("refuses a form body over 1 MB with the form route's page, not JSON", async () => {
    const response = await fetch(url('/api/cheat-sheet-form'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=${'x'.repeat(1024 * 1024)}`,
    });

    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('Back to the form');
  });

  test('injects SES faults only when started with emailFaultInjection', () => {
    expect(() => stack.setEmailFault('throttled')).toThrow(/emailFaultInjection/);
  });
});
