/**
 * The canary's mark through the save and send handlers, against the emulators: a request whose
 * `X-Canary-Mark` verifies under the run's deployment secret is the canary's (marked, no consent,
 * out of the unsent index, expiring within a day, taking no slot of the limits); a mark a visitor
 * makes without the secret, or copies onto a reader's address, leaves the request a reader's.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { canaryMailbox, canaryMarkHeader, canaryMarkKeyFrom, signCanaryMark } from '../../../core/data/canary-mark';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, saveRoute, sendRoute } from '../support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

let emulators: HandlerStack;
let save: Handler;
let send: Handler;

beforeAll(async () => {
  // Caps of one: a second send or save of a reader's would be refused, so a canary's passing shows it took no slot.
  emulators = await startHandlerStack({ clientHourlySaveCap: 1, clientHourlySendCap: 1, addressDailyCap: 1 });
  ({ handler: save } = await import('../../../lambdas/save-request/handler'));
  ({ handler: send } = await import('../../../lambdas/send-cheat-sheet/handler'));
});
afterAll(() => emulators?.stop());

const deploymentKey = () => canaryMarkKeyFrom(process.env.CLIENT_ADDRESS_KEY!);
let runNumber = 0;
const canaryRequest = () => ({ name: 'Site Canary', email: canaryMailbox(`run-${++runNumber}`), hasBook: true });
const marked = (email: string, key = deploymentKey(), at = new Date()) => ({
  [canaryMarkHeader.toLowerCase()]: signCanaryMark(key, email, at),
});
const post = (route: string, body: { email: string }, headers: Record<string, string>, sourceIp: string) =>
  postEvent(route, body, { sourceIp, headers });

test("saves the canary's request marked, without consent or a place in the unsent index, expiring within a day", async () => {
  const request = canaryRequest();
  const before = Math.floor(Date.now() / 1000);

  const reply = await save(post(saveRoute, request, marked(request.email), '192.0.2.1'));

  expect(reply.statusCode).toBe(201);
  const [item] = await emulators.items(request.email);
  expect(item).toMatchObject({ canary: true, delivery_status: 'requested' });
  expect(item).not.toHaveProperty('consent');
  expect(item).not.toHaveProperty('unsent_queue');
  expect(item!.expires_at! - before).toBeLessThanOrEqual(24 * 60 * 60 + 5);
});

test('takes no save slot: a client over its cap still saves canary requests', async () => {
  const replies: (number | undefined)[] = [];
  for (let run = 0; run < 3; run += 1) {
    const request = canaryRequest();
    replies.push((await save(post(saveRoute, request, marked(request.email), '192.0.2.2'))).statusCode);
  }

  expect(replies).toEqual([201, 201, 201]);
});

test('sends to the simulator address with no slot of the caps or the budget taken, and the item stays marked', async () => {
  const first = canaryRequest();
  const second = canaryRequest();

  // Both are the same mailbox to the per-address cap (success+tag), from one client: readers would get one send.
  const statuses = [];
  for (const request of [first, second]) {
    const headers = { ...marked(request.email), 'idempotency-key': `canary-${request.email}` };
    await save(post(saveRoute, request, headers, '192.0.2.3'));
    statuses.push((await send(post(sendRoute, request, headers, '192.0.2.3'))).statusCode);
  }

  expect(statuses).toEqual([200, 200]);
  expect(await emulators.emails(first.email)).toHaveLength(1);
  expect(await emulators.emails(second.email)).toHaveLength(1);
  expect(await emulators.counterItems()).toEqual([]);
  expect(await emulators.addressDailyCapItems()).toEqual([]);
  expect((await emulators.items(second.email)).map((item) => [item.canary, item.delivery_status])).toEqual([
    [true, 'sent'],
  ]);
});

test("a mark made without the deployment's secret is a reader's request: consent kept, in the unsent index, capped", async () => {
  const request = canaryRequest();
  const forged = marked(request.email, canaryMarkKeyFrom('a guess at the secret'));

  const replies = [
    (await save(post(saveRoute, request, forged, '192.0.2.4'))).statusCode,
    (await save(post(saveRoute, canaryRequest(), forged, '192.0.2.4'))).statusCode,
  ];

  expect(replies).toEqual([201, 429]);
  const [item] = await emulators.items(request.email);
  expect(item).not.toHaveProperty('canary');
  expect(item).toHaveProperty('consent');
  expect(item).toHaveProperty('unsent_queue');
});

test("the canary's own mark copied onto a reader's address, or an hour old, leaves the request a reader's", async () => {
  const reader = { name: 'Ada Reader', email: 'ada.canary.copy@example.com', hasBook: true };
  const canary = canaryRequest();
  const stale = marked(canary.email, deploymentKey(), new Date(Date.now() - 60 * 60 * 1000));

  await save(post(saveRoute, reader, marked(canary.email), '192.0.2.5'));
  await save(post(saveRoute, canary, stale, '192.0.2.6'));

  expect((await emulators.items(reader.email)).map((item) => item.canary)).toEqual([undefined]);
  expect((await emulators.items(canary.email)).map((item) => item.canary)).toEqual([undefined]);
});
