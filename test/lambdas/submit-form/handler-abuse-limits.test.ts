/**
 * The form route runs the save and send routes' own steps, so it keeps their issue-19 defences:
 * the save limit, the network send limit and the recipient-domain check (against a loopback DNS
 * server), each through the form handler against the emulators.
 */

import { startDnsServer, type LoopbackDnsServer } from '../../support/dns-server';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { formEvent } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

jest.setTimeout(60_000);

let emulators: HandlerStack;
let dns: LoopbackDnsServer;
let form: Handler;

beforeAll(async () => {
  dns = await startDnsServer({ 'example.com': { mx: [{ exchange: 'mx.example.com', priority: 10 }] } });
  emulators = await startHandlerStack({
    clientHourlySaveCap: 2,
    networkHourlySendCap: 2,
    recipientDomainCheck: 'on',
    dnsServers: dns.address,
  });
  form = documented((await import('../../../lambdas/submit-form/handler')).handler);
});
afterAll(async () => {
  await emulators?.stop();
  await dns?.close();
});

let visitorNumber = 0;
const newVisitor = () => ({ name: 'Ada Lovelace', email: `ada.form.${++visitorNumber}@example.com` });

test('stores no request past the client save cap', async () => {
  const client = { sourceIp: '192.0.2.31' };
  for (let saved = 0; saved < 2; saved += 1) await form(formEvent({ ...newVisitor(), hasBook: 'on' }, client));
  const third = newVisitor();

  await form(formEvent({ ...third, hasBook: 'on' }, client));

  expect((await emulators.items(third.email)).filter((item) => !item.cheat_sheet_sent)).toEqual([]);
});

test('sends the not-sent page past the network send cap', async () => {
  for (const sourceIp of ['198.51.100.41', '198.51.100.42']) {
    await form(formEvent({ ...newVisitor(), hasBook: 'on' }, { sourceIp }));
  }

  const reply = await form(formEvent({ ...newVisitor(), hasBook: 'on' }, { sourceIp: '198.51.100.43' }));

  expect(reply).toMatchObject({ statusCode: 303, headers: { Location: '/cheat-sheet/not-sent' } });
});

test('answers an address whose domain takes no mail with the 400 refusal page asking to check for typos', async () => {
  const reply = await form(
    formEvent({ name: 'Ada', email: 'ada@no-such-domain.example', hasBook: 'on' }, { sourceIp: '203.0.113.51' }),
  );

  expect(reply.statusCode).toBe(400);
  expect(reply.body).toMatch(/typos/);
});
