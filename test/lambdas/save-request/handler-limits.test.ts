/**
 * The save route's limits (20 saves an hour per client, 60 per network: an IPv4 /24 or IPv6 /48)
 * and the name it stores, through the save handler against the emulators.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute } from '../support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

// Seventy saves in one test, on a machine other test files share.
jest.setTimeout(120_000);

let emulators: HandlerStack;
let save: Handler;

beforeAll(async () => {
  // The documented defaults, set explicitly so a shell's variables cannot change them.
  emulators = await startHandlerStack({ clientHourlySaveCap: 20, networkHourlySaveCap: 60 });
  ({ handler: save } = await import('../../../lambdas/save-request/handler'));
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: 'Ada Lovelace', email: `ada.saves.${++visitorNumber}@example.com` });

async function saveFrom(sourceIp: string, visitor = newVisitor()) {
  const reply = await save(postEvent(saveRoute, visitor, { sourceIp }));
  return { reply, visitor };
}

test('one client saves 20 requests an hour; the 21st gets 429 and is not stored', async () => {
  for (let saved = 0; saved < 20; saved += 1) expect((await saveFrom('192.0.2.10')).reply.statusCode).toBe(201);

  const { reply, visitor } = await saveFrom('192.0.2.10');

  expect([reply.statusCode, replyJson(reply).code]).toEqual([429, 'client_hourly_save_cap_reached']);
  expect(await emulators.items(visitor.email)).toEqual([]);
});

test('one IPv4 /24 saves 60 requests an hour whatever its clients; past it nothing is stored', async () => {
  const emails: string[] = [];
  const statuses: number[] = [];
  for (let index = 0; index < 70; index += 1) {
    // Ten clients of one /24, seven saves each: no client reaches its own 20.
    const { reply, visitor } = await saveFrom(`198.51.100.${(index % 10) + 1}`);
    statuses.push(reply.statusCode ?? 0);
    emails.push(visitor.email);
  }

  const stored = (await emulators.items()).filter((item) => emails.includes(item.email));
  expect([statuses.filter((status) => status === 201).length, stored.length]).toEqual([60, 60]);
  expect(new Set(statuses.slice(60))).toEqual(new Set([429]));
});

test('the save refusal says so in plain words, naming neither domain nor verification', async () => {
  for (let saved = 0; saved < 20; saved += 1) await saveFrom('192.0.2.20');

  const body = replyJson((await saveFrom('192.0.2.20')).reply);

  expect(body.error).toMatch(/try again later/);
  expect(body.error).not.toMatch(/domain|verif/i);
});

test('stores the name without its control and format characters', async () => {
  const visitor = { name: 'Ada\u200B Love\u202Elace', email: `ada.saves.clean@example.com` };

  await save(postEvent(saveRoute, visitor, { sourceIp: '203.0.113.9' }));

  expect((await emulators.items(visitor.email)).map((item) => item.name)).toEqual(['Ada Lovelace']);
});
