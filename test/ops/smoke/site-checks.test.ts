/**
 * The smoke test against the local twin serving the real build (`npm run build` first), and
 * against deliberately broken servers started here: one that answers 200 to everything, one
 * that serves the real product without its security headers.
 */

import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { buildOutput } from '../../../core/build-output';
import { cheatSheetPdfForTests, stackStartTimeoutMs } from '../../support/cheat-sheet-pdf';
import { startLocalStack, type LocalStack } from '../../../local/local-stack';
import {
  findHashedAsset,
  formatReport,
  runSiteChecks,
  securityHeadersVerdict,
  type CheckResult,
} from '../../../ops/smoke/site-checks';
import { capturedEmails } from '../../support/captured-emails';

const siteDir = path.join(process.cwd(), buildOutput.siteDirectory);

let stack: LocalStack;
const servers: http.Server[] = [];

// Starting the emulators and building the PDF (its fonts subset) takes seconds on a busy machine.
beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  stack = await startLocalStack({ siteDir, cheatSheetPdf: await cheatSheetPdfForTests() });
}, stackStartTimeoutMs);
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await stack?.stop();
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const failedNames = (results: CheckResult[]) => results.filter(({ ok }) => !ok).map(({ name }) => name);

describe('against the local twin', () => {
  let results: CheckResult[];
  beforeAll(async () => {
    results = await runSiteChecks(stack.urls.site);
  });

  test('every check holds, each with what it saw', () => {
    expect(failedNames(results)).toEqual([]);
    expect(results.map(({ name }) => name)).toEqual([
      'page',
      'security headers',
      'hashed asset',
      'not-found page',
      'POST /api/cheat-sheet-requests, malformed body',
      'GET /api/cheat-sheet-requests',
      'POST /api/send-cheat-sheet, malformed body',
      'GET /api/send-cheat-sheet',
      'API replies not cached',
    ]);
    expect(results.find(({ name }) => name === 'hashed asset')?.detail).toMatch(/immutable/);
    expect(results.find(({ name }) => name === 'GET /api/send-cheat-sheet')?.detail).toMatch(/^405 JSON error/);
  });

  test('writes no item and sends no e-mail', async () => {
    const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    const dynamoDb = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: stack.endpoints.dynamodb, region: 'us-east-1', credentials }),
    );
    try {
      for (const table of [stack.tableName, stack.limitCountersTableName]) {
        const { Items = [] } = await dynamoDb.send(new ScanCommand({ TableName: table }));
        expect({ table, items: Items.length }).toEqual({ table, items: 0 });
      }
    } finally {
      dynamoDb.destroy();
    }
    expect(await capturedEmails(stack.urls.mail)).toEqual([]);
  });

  test('ends its report with a summary of every check passing', () => {
    const report = formatReport(results).split('\n');
    expect(report).toHaveLength(results.length + 1);
    expect(report.at(-1)).toBe(`All ${results.length} checks passed.`);
  });
});

describe('against broken servers', () => {
  test('a server answering 200 to everything fails the not-found page and every API check, by name', async () => {
    const page = readFileSync(path.join(siteDir, 'index.html'), 'utf8');
    const url = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });

    const results = await runSiteChecks(url);

    expect(failedNames(results)).toEqual([
      'security headers',
      'hashed asset',
      'not-found page',
      'POST /api/cheat-sheet-requests, malformed body',
      'GET /api/cheat-sheet-requests',
      'POST /api/send-cheat-sheet, malformed body',
      'GET /api/send-cheat-sheet',
      'API replies not cached',
    ]);
    const report = formatReport(results);
    expect(report).toContain('FAIL  not-found page: GET /smoke-test-');
    expect(report).toContain(' 200, not the not-found page');
    expect(report.split('\n').at(-1)).toMatch(/^8 of 9 checks failed: security headers; hashed asset; not-found page;/);
  });

  test('the real product without its security headers fails that check alone, saying which are missing', async () => {
    const stripped = [
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'strict-transport-security',
    ];
    const url = await serve((request, response) => {
      const upstream = http.request(
        new URL(request.url ?? '/', stack.urls.site),
        { method: request.method, headers: request.headers },
        (reply) => {
          const headers = Object.fromEntries(
            Object.entries(reply.headers).filter(([name]) => !stripped.includes(name.toLowerCase())),
          );
          response.writeHead(reply.statusCode ?? 502, headers);
          reply.pipe(response);
        },
      );
      request.pipe(upstream);
    });

    const results = await runSiteChecks(url);

    expect(failedNames(results)).toEqual(['security headers']);
    expect(results.find(({ name }) => name === 'security headers')?.detail).toBe(
      'no CSP, no X-Content-Type-Options, framing allowed, HSTS not required on http',
    );
  });

  test('a server that is not there fails every check with what went wrong, rather than throwing', async () => {
    const url = await serve(() => undefined);
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));

    const results = await runSiteChecks(url, { timeoutMs: 2_000 });

    expect(results.every(({ ok }) => !ok)).toBe(true);
    expect(results[0].detail).toMatch(/^no answer: .*ECONNREFUSED/);
  });
});

describe('the security headers verdict', () => {
  const complete = {
    'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  };

  test('requires HSTS of a year or more on https', () => {
    expect(securityHeadersVerdict(new Headers(complete), true).ok).toBe(true);
    const withoutHsts = { ...complete, 'strict-transport-security': '' };
    expect(securityHeadersVerdict(new Headers(withoutHsts), true)).toEqual({
      ok: false,
      detail: 'CSP, nosniff=nosniff, framing denied, no HSTS',
    });
    expect(
      securityHeadersVerdict(new Headers({ ...complete, 'strict-transport-security': 'max-age=300' }), true).ok,
    ).toBe(false);
  });

  test("accepts X-Frame-Options or CSP's frame-ancestors as frame denial", () => {
    expect(securityHeadersVerdict(new Headers(complete), false).ok).toBe(true);
    const noAncestors = { ...complete, 'content-security-policy': "default-src 'self'" };
    expect(securityHeadersVerdict(new Headers(noAncestors), false).detail).toContain('framing allowed');
    expect(securityHeadersVerdict(new Headers({ ...noAncestors, 'x-frame-options': 'DENY' }), false).ok).toBe(true);
  });
});

test('finds the hashed script a Vite page references', () => {
  expect(findHashedAsset('<script type="module" crossorigin src="/assets/index-ThzLMKDp.js"></script>')).toBe(
    '/assets/index-ThzLMKDp.js',
  );
  expect(findHashedAsset('<img src="/images/book-cover.svg">')).toBeUndefined();
});
