/**
 * A stand-in for the author's mail provider on loopback: a small node http server answering as Kit
 * (v4), MailerLite, Mailchimp (3.0) or a Standard Webhooks receiver does, for the calls the
 * product makes, with the same upsert rules, and counting what it received. Faults are queued
 * (`fail`: the next requests answer a status, or are processed and then left without an answer)
 * or switched on (`down`: every request answers 503).
 */

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { MailProvider } from '../../core/data/mail-provider';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface StandInSubscriber {
  readonly id: number;
  name?: string;
  readonly email: string;
  readonly lists: Set<string>;
  state: 'active' | 'cancelled';
  /**
   * Whether the provider would e-mail the reader to confirm first (double opt-in), as each one is
   * asked to on creation: Mailchimp `status_if_new: pending`, Kit `state: inactive`, MailerLite
   * `status: unconfirmed`, the webhook's `double_opt_in: true`.
   */
  readonly confirmationAsked: boolean;
}

export type StandInFault =
  /** Answers this status (and `Retry-After`), doing nothing. */
  | { readonly status: number; readonly retryAfter?: string }
  /** Does what was asked, then never answers: the caller times out after the provider accepted. */
  | { readonly acceptThenStall: true };

export interface StandInMailProvider {
  /** The API's base address (for the webhook: the endpoint itself). */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** By lower-cased address. */
  readonly subscribers: Map<string, StandInSubscriber>;
  /** The webhook: every delivery whose signature verified, by `webhook-id`. */
  readonly webhookDeliveries: Map<string, unknown[]>;
  /** Webhook deliveries whose signature did not verify. */
  readonly rejectedSignatures: number;
  /** Queues faults for the next requests, one each. */
  fail(...faults: StandInFault[]): void;
  /** While `down()` is true, every request answers 503. */
  down: (() => boolean) | undefined;
  close(): Promise<void>;
}

export interface StandInOptions {
  readonly provider: MailProvider;
  /** The API key (or the webhook's `whsec_…` secret) it accepts. */
  readonly key: string;
  /** The form, group or audience that exists. */
  readonly list?: string;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

export async function startStandInMailProvider(options: StandInOptions): Promise<StandInMailProvider> {
  const requests: ReceivedRequest[] = [];
  const subscribers = new Map<string, StandInSubscriber>();
  const webhookDeliveries = new Map<string, unknown[]>();
  const faults: StandInFault[] = [];
  const sockets = new Set<Socket>();
  let nextId = 1;
  let rejectedSignatures = 0;
  const verifier = options.provider === 'webhook' ? new Webhook(options.key) : undefined;

  const upsert = (email: string, name: string | undefined, list?: string, confirmationAsked = false) => {
    const key = email.toLowerCase();
    const existing = subscribers.get(key);
    const subscriber = existing ?? {
      id: nextId++,
      email: key,
      lists: new Set<string>(),
      state: 'active' as const,
      confirmationAsked,
    };
    if (name !== undefined) subscriber.name = name;
    if (list !== undefined) subscriber.lists.add(list);
    subscribers.set(key, subscriber);
    return { subscriber, created: existing === undefined };
  };
  const byId = (id: string) => [...subscribers.values()].find((s) => String(s.id) === id);

  function authorized(request: ReceivedRequest): boolean {
    const { headers } = request;
    switch (options.provider) {
      case 'kit':
        return headers['x-kit-api-key'] === options.key;
      case 'mailerlite':
        return headers.authorization === `Bearer ${options.key}`;
      case 'mailchimp': {
        const basic = /^Basic (.+)$/.exec(headers.authorization ?? '')?.[1];
        return (
          basic !== undefined && Buffer.from(basic, 'base64').toString().split(':').slice(1).join(':') === options.key
        );
      }
      case 'webhook':
        return true;
    }
  }

  /** The provider's answer: status and JSON body (undefined: none). */
  function handle(request: ReceivedRequest): { status: number; body?: unknown } {
    const { method, path } = request;
    const json = () => JSON.parse(request.body || '{}') as Record<string, unknown>;
    if (!authorized(request)) return { status: 401, body: { errors: ['The access token is invalid'] } };
    const url = new URL(path, 'http://stand-in');
    let match: RegExpExecArray | null;
    switch (options.provider) {
      case 'kit': {
        if (method === 'POST' && url.pathname === '/v4/subscribers') {
          const body = json();
          const { subscriber, created } = upsert(
            String(body.email_address),
            body.first_name as string | undefined,
            undefined,
            body.state === 'inactive',
          );
          return { status: created ? 201 : 200, body: { subscriber: { id: subscriber.id } } };
        }
        if (method === 'POST' && (match = /^\/v4\/forms\/([^/]+)\/subscribers$/.exec(url.pathname))) {
          if (match[1] !== options.list) return { status: 404, body: { errors: ['Not Found'] } };
          const subscriber = subscribers.get(String(json().email_address).toLowerCase());
          if (!subscriber) return { status: 404, body: { errors: ['Subscriber not found'] } };
          const added = !subscriber.lists.has(match[1]);
          subscriber.lists.add(match[1]);
          return { status: added ? 201 : 200, body: { subscriber: { id: subscriber.id } } };
        }
        if (method === 'GET' && url.pathname === '/v4/subscribers') {
          const subscriber = subscribers.get(String(url.searchParams.get('email_address')).toLowerCase());
          return { status: 200, body: { subscribers: subscriber ? [{ id: subscriber.id }] : [] } };
        }
        if (method === 'POST' && (match = /^\/v4\/subscribers\/([^/]+)\/unsubscribe$/.exec(url.pathname))) {
          const subscriber = byId(match[1]);
          if (!subscriber) return { status: 404 };
          subscriber.state = 'cancelled';
          return { status: 204 };
        }
        break;
      }
      case 'mailerlite': {
        if (method === 'POST' && url.pathname === '/api/subscribers') {
          const body = json();
          const groups = (body.groups as string[] | undefined) ?? [];
          if (groups.some((group) => group !== options.list))
            return { status: 422, body: { message: 'Invalid group' } };
          const { subscriber, created } = upsert(
            String(body.email),
            (body.fields as { name?: string })?.name,
            groups[0],
            body.status === 'unconfirmed',
          );
          return { status: created ? 201 : 200, body: { data: { id: String(subscriber.id) } } };
        }
        if (method === 'GET' && (match = /^\/api\/subscribers\/([^/]+)$/.exec(url.pathname))) {
          const subscriber = subscribers.get(decodeURIComponent(match[1]).toLowerCase());
          return subscriber ? { status: 200, body: { data: { id: String(subscriber.id) } } } : { status: 404 };
        }
        if (method === 'POST' && (match = /^\/api\/subscribers\/([^/]+)\/forget$/.exec(url.pathname))) {
          const subscriber = byId(match[1]);
          if (!subscriber) return { status: 404 };
          subscribers.delete(subscriber.email);
          return { status: 200, body: { message: 'Subscriber will be forgotten' } };
        }
        break;
      }
      case 'mailchimp': {
        if (
          (match = /^\/3\.0\/lists\/([^/]+)\/members\/([0-9a-f]{32})(\/actions\/delete-permanent)?$/.exec(url.pathname))
        ) {
          if (match[1] !== options.list) return { status: 404, body: { title: 'Resource Not Found' } };
          if (method === 'PUT' && !match[3]) {
            const body = json();
            const email = String(body.email_address);
            if (md5(email.toLowerCase()) !== match[2]) return { status: 400, body: { title: 'Invalid Resource' } };
            const { subscriber } = upsert(
              email,
              (body.merge_fields as { FNAME?: string })?.FNAME,
              match[1],
              body.status_if_new === 'pending',
            );
            return { status: 200, body: { id: match[2], web_id: subscriber.id } };
          }
          if (method === 'POST' && match[3]) {
            const subscriber = [...subscribers.values()].find((s) => md5(s.email) === match![2]);
            if (!subscriber) return { status: 404, body: { title: 'Resource Not Found' } };
            subscribers.delete(subscriber.email);
            return { status: 204 };
          }
        }
        break;
      }
      case 'webhook': {
        if (method === 'POST' && url.pathname === '/hooks/leads') {
          let payload: { type?: string; data?: { email?: string; name?: string; double_opt_in?: boolean } };
          try {
            payload = verifier!.verify(request.body, request.headers as Record<string, string>) as typeof payload;
          } catch {
            rejectedSignatures += 1;
            return { status: 400, body: { error: 'signature' } };
          }
          const id = String(request.headers['webhook-id']);
          const seen = webhookDeliveries.get(id);
          webhookDeliveries.set(id, [...(seen ?? []), payload]);
          // A receiver keyed on webhook-id acts on the first delivery of an id only.
          if (!seen && payload.type === 'lead.created') {
            upsert(String(payload.data?.email), payload.data?.name, undefined, payload.data?.double_opt_in === true);
          }
          if (!seen && payload.type === 'lead.erased') subscribers.delete(String(payload.data?.email).toLowerCase());
          return { status: 204 };
        }
        break;
      }
    }
    return { status: 404, body: { error: `no such route: ${method} ${url.pathname}` } };
  }

  function answer(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
    response.writeHead(status, { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      if (standIn.down?.()) return answer(response, 503, { error: 'down' });
      const fault = faults.shift();
      if (fault && 'status' in fault) {
        return answer(
          response,
          fault.status,
          { error: 'fault' },
          fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
        );
      }
      const { status, body } = handle(request);
      if (fault && 'acceptThenStall' in fault) return; // done, never answered
      answer(response, status, body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  const standIn: StandInMailProvider = {
    url: options.provider === 'webhook' ? `${base}/hooks/leads` : base,
    requests,
    subscribers,
    webhookDeliveries,
    get rejectedSignatures() {
      return rejectedSignatures;
    },
    fail: (...more) => faults.push(...more),
    down: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return standIn;
}
