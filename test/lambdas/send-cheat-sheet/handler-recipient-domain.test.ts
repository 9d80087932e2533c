/**
 * The recipient-domain check through the send handler, against a DNS server on loopback
 * (DNS_SERVERS): a domain that takes no mail is refused before any limit is counted; a lookup that
 * fails lets the send go on.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { startDnsServer, type LoopbackDnsServer } from '../../support/dns-server';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, sendRoute } from '../support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

jest.setTimeout(30_000);

let emulators: HandlerStack;
let dns: LoopbackDnsServer;
let send: Handler;

beforeAll(async () => {
  dns = await startDnsServer({
    'takes-mail.example': { mx: [{ exchange: 'mx.takes-mail.example', priority: 10 }] },
    'null-mx.example': { mx: [{ exchange: '', priority: 0 }] },
    'broken.example': { servfail: true },
  });
  emulators = await startHandlerStack({ recipientDomainCheck: 'on', dnsServers: dns.address });
  ({ handler: send } = await import('../../../lambdas/send-cheat-sheet/handler'));
});
afterAll(async () => {
  await emulators?.stop();
  await dns?.close();
});

let visitorNumber = 0;
const visitorAt = (domain: string) => ({ name: 'Ada Lovelace', email: `ada.${++visitorNumber}@${domain}` });

test('sends to an address whose domain has MX records', async () => {
  const visitor = visitorAt('takes-mail.example');

  expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(200);
  expect(await emulators.emails(visitor.email)).toHaveLength(1);
});

test.each(['no-such-domain.example', 'null-mx.example'])(
  'refuses %s with 400 undeliverable_address, asking to check for typos, sending nothing',
  async (domain) => {
    const visitor = visitorAt(domain);

    const reply = await send(postEvent(sendRoute, visitor));

    const body = replyJson(reply);
    expect([reply.statusCode, body.success, body.code]).toEqual([400, false, 'undeliverable_address']);
    expect(body.error).toMatch(/typo/);
    expect(body.error).not.toMatch(/domain|verif/i);
    expect(await emulators.emails(visitor.email)).toEqual([]);
  },
);

test('counts no limit for a refused address: its counters stay empty', async () => {
  const before = await emulators.counterItems();

  await send(postEvent(sendRoute, visitorAt('no-such-domain.example'), { sourceIp: '192.0.2.99' }));

  expect(await emulators.counterItems()).toEqual(before);
});

test('sends anyway when the lookup fails (fail open)', async () => {
  const visitor = visitorAt('broken.example');

  expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(200);
  expect(await emulators.emails(visitor.email)).toHaveLength(1);
});
