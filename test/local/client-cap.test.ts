/**
 * The per-client limit through the local twin's real HTTP server: the client is the socket's
 * address, as API Gateway's sourceIp is, so headers a visitor writes change nothing. A limit of 3
 * (CHEAT_SHEET_CLIENT_HOURLY_LIMIT) keeps the test short; the rule is the same at 10.
 */

import { cheatSheetPdfForTests, stackStartTimeoutMs } from '../support/cheat-sheet-pdf';
import { startLocalStack, type LocalStack } from '../../local/local-stack';
import { rawRequest } from './support/raw-request';

let stack: LocalStack;

// Starting the emulators and building the PDF (its fonts subset) takes seconds on a busy machine.
beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true'; // the functions' metrics are tested in test/lambdas
  stack = await startLocalStack({
    siteDir: null,
    cheatSheetPdf: await cheatSheetPdfForTests(),
    clientHourlySendCap: 3,
  });
}, stackStartTimeoutMs);
afterAll(() => stack?.stop());

let visitorNumber = 0;

/** A send from `localAddress` (a loopback address of its own: another client), with extra headers. */
async function sendFrom(localAddress: string, headers: Record<string, string> = {}) {
  visitorNumber += 1;
  const response = await rawRequest(stack.urls.site, '/api/send-cheat-sheet', {
    method: 'POST',
    localAddress,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ name: `Ada ${visitorNumber}`, email: `ada.local.${visitorNumber}@example.com` }),
  });
  return { status: response.status, body: JSON.parse(response.body) as Record<string, unknown> };
}

/** Headers that claim another client, different on every request. */
const forgedHeaders = (n: number) => ({
  'X-Forwarded-For': `203.0.113.${n}`,
  'X-Real-IP': `203.0.113.${n + 100}`,
  Forwarded: `for=198.51.100.${n}`,
  'CloudFront-Viewer-Address': `198.51.100.${n + 100}:443`,
});

describe('the client send cap behind the local server', () => {
  test('counts by the socket address: forged X-Forwarded-For, X-Real-IP, Forwarded and CloudFront-Viewer-Address neither dodge nor reset it', async () => {
    const statuses = [];
    for (let n = 1; n <= 5; n += 1) statuses.push((await sendFrom('127.0.0.2', forgedHeaders(n))).status);

    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  test("a forged header naming a client at its limit does not use up or borrow that client's sends", async () => {
    for (let n = 0; n < 3; n += 1) await sendFrom('127.0.0.3');
    expect((await sendFrom('127.0.0.3')).status).toBe(429);

    const reply = await sendFrom('127.0.0.4', { 'X-Forwarded-For': '127.0.0.3', 'X-Real-IP': '127.0.0.3' });

    expect(reply.status).toBe(200);
  });

  test("answers past the limit with 429 and the route's JSON error, free of 'domain' and 'verify'", async () => {
    for (let n = 0; n < 3; n += 1) await sendFrom('127.0.0.5');

    const reply = await sendFrom('127.0.0.5');

    expect(reply).toEqual({
      status: 429,
      body: { success: false, error: expect.stringMatching(/last hour/), code: 'client_hourly_cap_reached' },
    });
    expect(reply.body.error).not.toMatch(/domain|verify/i);
  });
});
