/**
 * Stand-ins for an AWS service whose answer comes too late: the request reaches the service and
 * takes effect, but its reply arrives after the SDK's request timeout (core/config/sdk-timeouts.ts).
 * - `startSlowSes`: accepts every SendEmail (counting it as an e-mail sent) and answers late.
 * - `startDelayingProxy`: passes every call through to another endpoint (dynalite) at once, and
 *   holds back the reply of the first call a test picks.
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowSes {
  readonly url: string;
  /** SendEmail requests it received: each one an e-mail SES would have sent. */
  readonly accepted: () => number;
  close(): Promise<void>;
}

function closer(server: http.Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

async function listenLocally(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startSlowSes(answerAfterMs: number): Promise<SlowSes> {
  let accepted = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      accepted += 1;
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (response.destroyed) return;
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ MessageId: `slow-${accepted}` }));
      }, answerAfterMs);
      timers.add(timer);
    });
  });
  const url = await listenLocally(server);
  const close = closer(server);
  return {
    url,
    accepted: () => accepted,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await close();
    },
  };
}

/** One call as the proxy saw it: DynamoDB's operation (from `X-Amz-Target`) and the JSON body. */
export interface ProxiedCall {
  readonly operation: string;
  readonly body: Record<string, unknown>;
}

export interface DelayingProxy {
  readonly url: string;
  /** The next call `matches` picks has its reply held back `ms` (it still reaches the target at once). */
  delayNext(matches: (call: ProxiedCall) => boolean, ms: number): void;
  /** Calls that matched and were held back. */
  readonly delayed: () => number;
  /** Every call it passed on, in order. */
  readonly calls: () => readonly ProxiedCall[];
  close(): Promise<void>;
}

export async function startDelayingProxy(targetUrl: string): Promise<DelayingProxy> {
  const target = new URL(targetUrl);
  let pending: { matches: (call: ProxiedCall) => boolean; ms: number } | null = null;
  let delayed = 0;
  const calls: ProxiedCall[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const target_ = String(request.headers['x-amz-target'] ?? '');
      const call: ProxiedCall = {
        operation: target_.slice(target_.indexOf('.') + 1),
        body: bytes.length > 0 ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : {},
      };
      calls.push(call);
      let holdMs = 0;
      if (pending?.matches(call)) {
        holdMs = pending.ms;
        pending = null;
        delayed += 1;
      }
      const forwarded = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (upstream) => {
          const answer: Buffer[] = [];
          upstream.on('data', (chunk: Buffer) => answer.push(chunk));
          upstream.on('end', () => {
            const reply = () => {
              if (response.destroyed) return;
              response.writeHead(upstream.statusCode ?? 502, upstream.headers);
              response.end(Buffer.concat(answer));
            };
            if (holdMs === 0) return reply();
            const timer = setTimeout(() => {
              timers.delete(timer);
              reply();
            }, holdMs);
            timers.add(timer);
          });
        },
      );
      forwarded.on('error', () => {
        if (!response.headersSent && !response.destroyed) response.writeHead(502).end();
      });
      forwarded.end(bytes);
    });
  });
  const url = await listenLocally(server);
  const close = closer(server);
  return {
    url,
    delayNext: (matches, ms) => {
      pending = { matches, ms };
    },
    delayed: () => delayed,
    calls: () => calls,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await close();
    },
  };
}
