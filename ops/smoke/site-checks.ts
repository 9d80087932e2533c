/**
 * Checks a running product from outside, as a visitor and a careless client would: the page,
 * its headers and assets, the not-found page, and both API routes answering bad requests. Works
 * against `npm start` and the deployed CloudFront URL alike. It writes nothing and sends no
 * e-mail: the only requests to the API carry a body that is not JSON, or use another method, and
 * both are refused before the functions touch a table or SES.
 */

import { apiRoutes } from '../../core/api/routes';
import { notFound } from '../../core/content/site';
import {
  hasTitleHeading,
  maxAgeOf,
  oneYearSeconds,
  securityHeadersVerdict,
} from '../../lambdas/canary-check/page-markup';

export { securityHeadersVerdict };

export interface CheckResult {
  readonly name: string;
  /** False fails the smoke test (exit 1). */
  readonly ok: boolean;
  /** Holds but needs attention (printed WARN, exit 0): e.g. the SES sandbox, with its fix. */
  readonly warning?: boolean;
  /** What the check saw, in a few words. */
  readonly detail: string;
  /** What to add or change, one line each (the DNS records a pending identity waits for): the job summary lists them. */
  readonly fixLines?: readonly string[];
}

export interface SiteCheckOptions {
  /** @default 10 seconds per request */
  readonly timeoutMs?: number;
}

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  readonly url: string;
}

async function request(url: URL, init: RequestInit, timeoutMs: number): Promise<Reply> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  return { status: response.status, headers: response.headers, body: await response.text(), url: response.url };
}

/** Runs one check; a request that fails outright (refused, timed out) fails that check alone. */
async function check(name: string, run: () => Promise<Omit<CheckResult, 'name'>>): Promise<CheckResult> {
  try {
    return { name, ...(await run()) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      name,
      ok: false,
      detail: `no answer: ${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause})` : ''}`,
    };
  }
}

/** The first script or stylesheet under /assets/ whose name carries a content hash (Vite: `name-HASH.ext`). */
export function findHashedAsset(html: string): string | undefined {
  return html.match(/(?:src|href)="(\/assets\/[^"]+-[A-Za-z0-9_-]{8,}\.(?:js|css))"/)?.[1];
}

function isJsonError(reply: Reply): boolean {
  if (!reply.headers.get('content-type')?.includes('application/json')) return false;
  try {
    const body = JSON.parse(reply.body) as { error?: unknown };
    return typeof body.error === 'string' && body.error.length > 0;
  } catch {
    return false;
  }
}

function describeApiReply(reply: Reply): string {
  const kind = isJsonError(reply) ? 'JSON error' : (reply.headers.get('content-type') ?? 'no content type');
  return `${reply.status} ${kind}, Cache-Control: ${reply.headers.get('cache-control') ?? 'none'}`;
}

/** Every check against `siteUrl` (`http://localhost:3000/` or `https://d….cloudfront.net`), in order. */
export async function runSiteChecks(siteUrl: string, options: SiteCheckOptions = {}): Promise<CheckResult[]> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const base = new URL(siteUrl);
  const https = base.protocol === 'https:';
  const results: CheckResult[] = [];
  let home: Reply | undefined;

  results.push(
    await check('page', async () => {
      home = await request(new URL('/', base), {}, timeoutMs);
      // Pre-rendered: the book's title heading is in the HTML itself, not added by a script.
      const prerendered = hasTitleHeading(home.body);
      return {
        ok: home.status === 200 && prerendered,
        detail: `GET / ${home.status}, ${home.body.length} bytes, ${prerendered ? 'pre-rendered (title heading in the HTML)' : 'no pre-rendered title heading'}`,
      };
    }),
  );

  results.push(
    await check('security headers', async () => {
      const page = home ?? (await request(new URL('/', base), {}, timeoutMs));
      return securityHeadersVerdict(page.headers, https);
    }),
  );

  results.push(
    await check('hashed asset', async () => {
      const asset = home && findHashedAsset(home.body);
      if (!asset) return { ok: false, detail: 'no hashed /assets/ file referenced by the page' };
      const reply = await request(new URL(asset, base), {}, timeoutMs);
      const cacheControl = reply.headers.get('cache-control');
      const immutable = /immutable/i.test(cacheControl ?? '') && (maxAgeOf(cacheControl) ?? 0) >= oneYearSeconds;
      return {
        ok: reply.status === 200 && immutable,
        detail: `GET ${asset} ${reply.status}, Cache-Control: ${cacheControl ?? 'none'}`,
      };
    }),
  );

  results.push(
    await check('not-found page', async () => {
      const path = `/smoke-test-${Date.now().toString(36)}-no-such-page`;
      const reply = await request(new URL(path, base), {}, timeoutMs);
      const isNotFoundPage = reply.body.includes(notFound.message);
      return {
        ok: reply.status === 404 && isNotFoundPage,
        detail: `GET ${path} ${reply.status}, ${isNotFoundPage ? 'the not-found page' : 'not the not-found page'}`,
      };
    }),
  );

  const apiReplies: Reply[] = [];
  for (const route of Object.values(apiRoutes)) {
    results.push(
      await check(`POST ${route}, malformed body`, async () => {
        // Not JSON: refused before anything is stored or sent.
        const reply = await request(
          new URL(route, base),
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"smoke-test":' },
          timeoutMs,
        );
        apiReplies.push(reply);
        return { ok: reply.status >= 400 && reply.status < 500 && isJsonError(reply), detail: describeApiReply(reply) };
      }),
    );
    results.push(
      await check(`GET ${route}`, async () => {
        const reply = await request(new URL(route, base), { method: 'GET' }, timeoutMs);
        apiReplies.push(reply);
        return { ok: reply.status === 405 && isJsonError(reply), detail: describeApiReply(reply) };
      }),
    );
  }

  results.push(
    await check('API replies not cached', async () => {
      const cached = apiReplies.filter((reply) => !/no-store/i.test(reply.headers.get('cache-control') ?? ''));
      return {
        ok: apiReplies.length > 0 && cached.length === 0,
        detail:
          apiReplies.length === 0
            ? 'no API reply to look at'
            : cached.length === 0
              ? `all ${apiReplies.length} with Cache-Control: no-store`
              : `${cached.length} of ${apiReplies.length} without no-store`,
      };
    }),
  );
  return results;
}

/** One line per check, then the summary; failures named. */
export function formatReport(results: readonly CheckResult[]): string {
  const status = ({ ok, warning }: CheckResult) => (ok ? (warning ? 'WARN' : 'PASS') : 'FAIL');
  const lines = results.map((result) => `${status(result)}  ${result.name}: ${result.detail}`);
  const failed = results.filter(({ ok }) => !ok);
  const warned = results.filter(({ ok, warning }) => ok && warning);
  const warnings =
    warned.length === 0 ? '' : ` ${warned.length} with a warning: ${warned.map(({ name }) => name).join('; ')}.`;
  lines.push(
    failed.length === 0
      ? `All ${results.length} checks passed.${warnings}`
      : `${failed.length} of ${results.length} checks failed: ${failed.map(({ name }) => name).join('; ')}.`,
  );
  return lines.join('\n');
}
