/**
 * The canary's check against small servers that break one thing each (the local twin's whole run
 * is in test/ops/smoke/smoke-command.test.ts and test/lambdas/canary/handler.test.ts): what each
 * step requires of the page and the routes, and that a failed page stops the run before a save.
 */

import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildOutput } from '../../../core/build-output';
import { securityHeaders } from '../../../core/config/edge-headers';
import { canaryMarkKeyFrom } from '../../../core/data/canary-mark';
import { runCanaryCheck } from '../../../lambdas/canary-check/canary-check';

const page = readFileSync(path.join(process.cwd(), buildOutput.siteDirectory, 'index.html'), 'utf8');
const servers: http.Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** A site: `/` answers `html` with the product's headers, the routes `api`; every request is logged. */
async function site(html: string, api: (path: string) => [number, object]) {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.url === '/') {
      response.writeHead(200, { ...securityHeaders, 'content-type': 'text/html' }).end(html);
      return;
    }
    const [status, body] = api(request.url ?? '');
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
}

const check = (siteUrl: string, send = false) =>
  runCanaryCheck({ siteUrl, run: 'test-run', markKey: canaryMarkKeyFrom('a secret'), send });
const answersAll = (route: string): [number, object] =>
  route === '/api/cheat-sheet-challenge'
    ? [200, { required: false }]
    : route.includes('send')
      ? [200, { success: true }]
      : [201, { id: 'x' }];

test('a page without the form fails the page step, naming what is missing, and nothing is saved', async () => {
  const { url, requests } = await site(page.replace(/<form\b[\s\S]*?<\/form>/, ''), answersAll);

  const steps = await check(url);

  expect(steps.map(({ name, ok }) => [name, ok])).toEqual([['page', false]]);
  expect(steps[0]!.detail).toContain('no form');
  expect(requests).toEqual(['GET /']);
});

test("a send refused with the service's 503 fails the send step with its status and code", async () => {
  const { url } = await site(page, (route) =>
    route.includes('send') ? [503, { success: false, code: 'email_service_unavailable' }] : answersAll(route),
  );

  const steps = await check(url, true);

  expect(steps.map(({ name, ok }) => [name, ok])).toEqual([
    ['page', true],
    ['save', true],
    ['send', false],
  ]);
  expect(steps[2]!.detail).toMatch(/^POST \/api\/send-cheat-sheet 503 email_service_unavailable/);
});

test('a run that does not send asks neither the challenge nor the send route', async () => {
  const { url, requests } = await site(page, answersAll);

  const steps = await check(url, false);

  expect(steps.every(({ ok }) => ok)).toBe(true);
  expect(requests).toEqual(['GET /', 'POST /api/cheat-sheet-requests']);
});
