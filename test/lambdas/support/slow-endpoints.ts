/**
 * Stand-ins for an AWS service whose answer comes too late: the request reaches the service and
 * takes effect, but its reply arrives after the SDK's request timeout (core/config/sdk-timeouts.ts).
 * - `startSlowSes`: accepts every SendEmail (counting it as an e-mail sent) and answers late.
 * - `startDelayingProxy`: passes every call through to another endpoint (dynalite) at once, and
 *   holds back the reply of the first call a test picks; on demand it also drops calls (never
 *   passed on, never answered: a write lost with a function stopped at its deadline), holds a
 *   call back before passing it on (a write that arrives late), or answers the e-mail index's
 *   queries with an empty page (the index lagging behind the table, as a global index may).
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
      // GetAccount (the send pace's rate) answers at once: only SendEmail is slow, and counted.
      if (request.method === 'GET') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ SendQuota: { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: 0 } }));
        return;
      }
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
  /** Every call `matches` picks from now on is dropped: never passed on, never answered, until `stopDropping`. */
  drop(matches: (call: ProxiedCall) => boolean): void;
  stopDropping(): void;
  /** The next call `matches` picks reaches the target only `ms` later (and its reply after that). */
  holdNextRequest(matches: (call: ProxiedCall) => boolean, ms: number): void;
  /** While on, every Query on a global index is answered with an empty page: the index has not caught up. */
  lagIndexes(on: boolean): void;
  close(): Promise<void>;
}

/**
 * The first call `matches` picks among those after the first `after` calls, once the proxy has
 * seen one: polled every 20 ms, for up to `withinMs`.
 */
export async function callSeen(
  proxy: DelayingProxy,
  matches: (call: ProxiedCall) => boolean,
  after: number,
  withinMs = 10_000,
): Promise<ProxiedCall> {
  const until = Date.now() + withinMs;
  for (;;) {
    const seen = proxy.calls().slice(after).find(matches);
    if (seen) return seen;
    if (Date.now() > until) throw new Error('The proxy saw no such call');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function startDelayingProxy(targetUrl: string): Promise<DelayingProxy> {
  const target = new URL(targetUrl);
  let pending: { matches: (call: ProxiedCall) => boolean; ms: number } | null = null;
  let delayed = 0;
  let dropping: ((call: ProxiedCall) => boolean) | null = null;
  let heldRequest: { matches: (call: ProxiedCall) => boolean; ms: number } | null = null;
  let indexesLag = false;
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
      if (dropping?.(call)) return;
      if (indexesLag && call.operation === 'Query' && typeof call.body.IndexName === 'string') {
        response.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0' });
        response.end(JSON.stringify({ Items: [], Count: 0, ScannedCount: 0 }));
        return;
      }
      let requestHoldMs = 0;
      if (heldRequest?.matches(call)) {
        requestHoldMs = heldRequest.ms;
        heldRequest = null;
      }
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
      if (requestHoldMs === 0) {
        forwarded.end(bytes);
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        forwarded.end(bytes);
      }, requestHoldMs);
      timers.add(timer);
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
    drop: (matches) => {
      dropping = matches;
    },
    stopDropping: () => {
      dropping = null;
    },
    holdNextRequest: (matches, ms) => {
      heldRequest = { matches, ms };
    },
    lagIndexes: (on) => {
      indexesLag = on;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await close();
    },
  };
}
