import { committedOpenApi, expectDocumentedReply, type ReceivedReply } from './openapi';

const json = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
const sent: ReceivedReply = {
  route: '/api/send-cheat-sheet',
  method: 'POST',
  status: 200,
  headers: json,
  body: JSON.stringify({
    success: true,
    message: "We've sent the cheat sheet to your email. Please check your inbox.",
  }),
};
const problems = (reply: ReceivedReply) => committedOpenApi().problems(reply);

describe('checking a reply against docs/openapi.yaml', () => {
  test('passes a reply the document describes', () => {
    expect(problems(sent)).toEqual([]);
    expect(() => expectDocumentedReply(sent)).not.toThrow();
  });

  test('passes a documented 405 with its Allow header, whatever the letter case of the header names', () => {
    const reply = {
      ...sent,
      method: 'GET',
      status: 405,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store', allow: 'POST' },
      body: JSON.stringify({ error: 'GET is not allowed here: please send the request with POST.' }),
      route: '/api/cheat-sheet-requests',
    };

    expect(problems(reply)).toEqual([]);
  });

  test("passes the form route's redirect to a result page, and fails one to any other place", () => {
    const redirect: ReceivedReply = {
      route: '/api/cheat-sheet-form',
      method: 'POST',
      status: 303,
      headers: { Location: '/cheat-sheet/sent', 'Cache-Control': 'no-store' },
      body: '',
    };

    expect(problems(redirect)).toEqual([]);
    expect(problems({ ...redirect, headers: { ...redirect.headers, Location: '/?email=ada%40example.com' } })).toEqual([
      expect.stringMatching(/^header Location: .* must be equal to one of the allowed values/),
    ]);
  });

  test("passes the form route's HTML refusal page, and fails one declared as JSON", () => {
    const page: ReceivedReply = {
      route: '/api/cheat-sheet-form',
      method: 'POST',
      status: 400,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
      body: '<!doctype html><p>Please enter your name.</p>',
    };

    expect(problems(page)).toEqual([]);
    expect(problems({ ...page, headers: { ...page.headers, 'Content-Type': 'application/json' } })).toEqual([
      expect.stringMatching(/^Content-Type application\/json is not documented/),
    ]);
  });

  test('fails a body of the wrong shape, naming the key that should not be there', () => {
    const reply = { ...sent, body: JSON.stringify({ success: true, message: 'Sent.', id: 'x' }) };

    expect(problems(reply)).toEqual([expect.stringMatching(/must NOT have additional properties \(id\)/)]);
  });

  test("fails the other route's failure shape", () => {
    const reply = { ...sent, status: 503, body: JSON.stringify({ error: 'Try later.' }) };

    expect(problems(reply)).toEqual([expect.stringMatching(/must have required property 'success'/)]);
  });

  test('fails a status the route does not document', () => {
    const reply = { ...sent, route: '/api/cheat-sheet-requests', status: 429, body: '{"error":"Slow down."}' };

    expect(problems(reply)).toEqual(['status 429 is not documented (documented: 201, 400, 413, 415, 500, 503)']);
  });

  test('fails a reply without its documented headers', () => {
    expect(problems({ ...sent, headers: { 'Content-Type': 'application/json' } })).toEqual([
      'header Cache-Control is missing',
    ]);
    expect(problems({ ...sent, headers: { ...json, 'Cache-Control': 'max-age=60' } })).toEqual([
      expect.stringMatching(/^header Cache-Control: "max-age=60": it must be equal to constant/),
    ]);
  });

  test('fails a 405 without Allow: POST', () => {
    const reply = { ...sent, method: 'PUT', status: 405, body: '{"success":false,"error":"No."}' };

    expect(problems(reply)).toEqual(['header Allow is missing']);
  });

  test('fails a body that is not JSON, or not declared as JSON', () => {
    expect(problems({ ...sent, body: '<html>' })).toEqual(['the body is not JSON: "<html>"']);
    expect(problems({ ...sent, headers: { ...json, 'Content-Type': 'text/html' } })).toEqual([
      'Content-Type text/html is not documented (documented: application/json)',
    ]);
  });

  test('fails a route or method the document does not have', () => {
    expect(problems({ ...sent, route: '/api/unknown' })).toEqual(['docs/openapi.yaml documents no POST /api/unknown']);
    expect(problems({ ...sent, method: 'TRACE' })).toEqual([
      'docs/openapi.yaml documents no TRACE /api/send-cheat-sheet',
    ]);
  });

  test('throws an error naming the request, the status and every difference', () => {
    const reply = { ...sent, headers: {}, body: '{"success":true}' };

    expect(() => expectDocumentedReply(reply)).toThrow(
      /^POST \/api\/send-cheat-sheet answered 200, which docs\/openapi\.yaml does not describe:\n {2}- header Cache-Control is missing\n {2}- Content-Type \(none\)/,
    );
  });
});
