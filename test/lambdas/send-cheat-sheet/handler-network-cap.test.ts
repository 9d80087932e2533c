/**
 * The per-network send limit (30 an hour per IPv4 /24 or IPv6 /48, above the client's 10) and the
 * per-address cap on the normalized address, through the send handler against the emulators.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

// Forty saves and sends a test, on a machine other test files share.
jest.setTimeout(120_000);

let emulators: HandlerStack;
let send: Handler;
let save: Handler;

beforeAll(async () => {
  // The documented defaults, set explicitly so a shell's variables cannot change them.
  emulators = await startHandlerStack({ clientHourlySendCap: 10, networkHourlySendCap: 30, addressDailyCap: 3 });
  ({ handler: send } = await import('../../../lambdas/send-cheat-sheet/handler'));
  ({ handler: save } = await import('../../../lambdas/save-request/handler'));
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: 'Ada Lovelace', email: `ada.network.${++visitorNumber}@example.com` });

/** Saves then sends from each address in turn, as the page does; the statuses of the sends. */
async function sendFromEach(addresses: readonly string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const sourceIp of addresses) {
    const visitor = newVisitor();
    await save(postEvent(saveRoute, visitor, { sourceIp }));
    statuses.push((await send(postEvent(sendRoute, visitor, { sourceIp }))).statusCode ?? 0);
  }
  return statuses;
}

const count = (statuses: readonly number[], status: number) => statuses.filter((each) => each === status).length;

test('40 sends from 40 addresses of one IPv4 /24 send 30, and refuse the rest with 429', async () => {
  const addresses = Array.from({ length: 40 }, (_, index) => `192.0.2.${index + 1}`);

  const statuses = await sendFromEach(addresses);

  expect([count(statuses, 200), count(statuses, 429)]).toEqual([30, 10]);
});

test('40 sends from 40 clients (/64s) of one IPv6 /48 send 30, and refuse the rest with 429', async () => {
  const addresses = Array.from({ length: 40 }, (_, index) => `2001:db8:4800:${(index + 1).toString(16)}::1`);

  const statuses = await sendFromEach(addresses);

  expect([count(statuses, 200), count(statuses, 429)]).toEqual([30, 10]);
});

test('the network refusal says so in plain words, with its code, naming neither domain nor verification', async () => {
  const addresses = Array.from({ length: 31 }, (_, index) => `198.51.100.${index + 1}`);
  await sendFromEach(addresses.slice(0, 30));
  const visitor = newVisitor();

  const reply = await send(postEvent(sendRoute, visitor, { sourceIp: addresses[30]! }));

  const body = replyJson(reply);
  expect([reply.statusCode, body.success, body.code]).toEqual([429, false, 'network_hourly_cap_reached']);
  expect(body.error).toMatch(/try again later/);
  expect(body.error).not.toMatch(/domain|verif/i);
});

test('+tag and Gmail-dot variants of one mailbox share its cap of 3, each mailed as typed', async () => {
  const variants = [
    'ada.lovelace@gmail.com',
    'ada.lovelace+1@gmail.com',
    'adalovelace@googlemail.com',
    'A.da.Lovelace+x@gmail.com',
  ];
  const statuses: number[] = [];
  for (const [index, email] of variants.entries()) {
    const reply = await send(
      postEvent(sendRoute, { name: 'Ada Lovelace', email }, { sourceIp: `203.0.113.${index + 1}` }),
    );
    statuses.push(reply.statusCode ?? 0);
  }

  expect(statuses).toEqual([200, 200, 200, 429]);
  expect(
    (await emulators.emails()).filter((email) => variants.slice(0, 3).includes(email.destination.to[0]!)),
  ).toHaveLength(3);
});
