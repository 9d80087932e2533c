/**
 * The abuse defences of both handlers, through the real SDK against the emulators: the
 * per-client hourly limit (10 by default) and the honeypot. The daily send budget has its own file
 * (it is shared by every send, so it needs a stack of its own), as does the CloudFront mode.
 */

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { cheatSheetSentMessage as sentMessage } from '../../../core/api/messages';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

// A dozen sends a test, on a machine other test files share.
jest.setTimeout(30_000);

let emulators: HandlerStack;
let send: Handler;
let save: Handler;

beforeAll(async () => {
  // The documented default, set explicitly so a shell's CHEAT_SHEET_CLIENT_HOURLY_LIMIT cannot change it.
  emulators = await startHandlerStack({ clientHourlySendCap: 10 });
  ({ handler: send } = await import('../../../lambdas/send-cheat-sheet/handler'));
  ({ handler: save } = await import('../../../lambdas/save-request/handler'));
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.abuse.${visitorNumber}@example.com` });
let clientNumber = 0;
/** A fresh IPv4 client from a documentation range. */
// Each client in a /24 of its own, so the per-network limit (30 an hour) never joins in here.
const newClient = () => `198.51.${++clientNumber}.100`;

/**
 * What the page does: save, then send. (A send with no saved request looks for it a few times,
 * 150 ms apart, before recording itself: saving first keeps these many sends quick.)
 */
async function sendFrom(sourceIp: string, visitor = newVisitor(), headers: Record<string, string> = {}) {
  await save(postEvent(saveRoute, visitor, { sourceIp, headers }));
  return send(postEvent(sendRoute, visitor, { sourceIp, headers }));
}

async function emailCount(): Promise<number> {
  return (await emulators.emails()).length;
}

describe('the client hourly send cap', () => {
  test('lets exactly 10 of 15 parallel sends from one client through, to 15 different addresses; the rest get 429', async () => {
    const client = newClient();
    const visitors = Array.from({ length: 15 }, () => newVisitor());
    const emailsBefore = await emailCount();

    const replies = await Promise.all(visitors.map((visitor) => sendFrom(client, visitor)));

    const statuses = replies.map((reply) => reply.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    expect((await emailCount()) - emailsBefore).toBe(10);
    for (const reply of replies.filter((candidate) => candidate.statusCode === 429)) {
      expect(replyJson(reply)).toEqual({
        success: false,
        error: expect.stringMatching(/in the last hour/),
        code: 'client_hourly_cap_reached',
      });
      // The page would show its unverified-sender alert for these words.
      expect(replyJson(reply).error).not.toMatch(/domain|verify/i);
    }
  });

  test("counts two clients independently: one at its limit leaves the other's sends alone", async () => {
    const [first, second] = [newClient(), newClient()];
    for (let sent = 0; sent < 10; sent += 1) expect((await sendFrom(first)).statusCode).toBe(200);
    expect((await sendFrom(first)).statusCode).toBe(429);

    const reply = await sendFrom(second);

    expect(reply.statusCode).toBe(200);
  });

  test('counts a whole IPv6 /64 as one client, and the next /64 as another', async () => {
    for (let host = 1; host <= 10; host += 1) expect((await sendFrom(`2001:db8:a:b::${host}`)).statusCode).toBe(200);

    expect((await sendFrom('2001:db8:a:b:ffff:ffff:ffff:fffe')).statusCode).toBe(429);
    expect((await sendFrom('2001:db8:a:c::1')).statusCode).toBe(200);
  });

  test('reads no forwarding header: a client forging them is still counted by its own address', async () => {
    const client = newClient();
    for (let sent = 0; sent < 10; sent += 1) await sendFrom(client);

    const reply = await sendFrom(client, newVisitor(), {
      'X-Forwarded-For': '203.0.113.99',
      'X-Real-IP': '203.0.113.98',
      Forwarded: 'for=203.0.113.97',
      'CloudFront-Viewer-Address': '203.0.113.96:443',
    });

    expect(reply.statusCode).toBe(429);
  });

  test("does not count refused sends: a client's sends the address cap refused leave its hourly sends", async () => {
    const client = newClient();
    const visitor = newVisitor();
    for (let sent = 0; sent < 3; sent += 1) expect((await sendFrom(client, visitor)).statusCode).toBe(200);
    // Seven refusals by the address cap (3 a day) use none of the client's 10.
    for (let refused = 0; refused < 7; refused += 1) expect((await sendFrom(client, visitor)).statusCode).toBe(429);

    for (let sent = 3; sent < 10; sent += 1) expect((await sendFrom(client)).statusCode).toBe(200);
    expect((await sendFrom(client)).statusCode).toBe(429);
  });

  test('stores no address: the counters are kept under a keyed hash, with counts and an expiry', async () => {
    const client = '198.51.100.250';
    await sendFrom(client);

    const counters = await emulators.counterItems();

    expect(counters.length).toBeGreaterThan(0);
    for (const counter of counters) {
      expect(counter.id).toMatch(/^((save-)?(client|network)#[0-9a-f]{64}|budget)#\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/);
      expect(counter.expires_at).toEqual(expect.any(Number));
      // `claims`: each claim's random token, how a retried write knows its own.
      for (const key of Object.keys(counter)) expect(['id', 'sends', 'claims', 'sealed', 'expires_at']).toContain(key);
      expect(JSON.stringify(counter)).not.toContain('198.51.');
    }
  });
});

describe('the honeypot', () => {
  const filledIn = () => ({ ...newVisitor(), website: 'https://spam.example/' });

  test('the save route answers 201 with a fresh id, as on success, and stores nothing', async () => {
    const visitor = filledIn();
    const itemsBefore = (await emulators.items()).length;

    const [first, second] = [await save(postEvent(saveRoute, visitor)), await save(postEvent(saveRoute, visitor))];

    expect(first.statusCode).toBe(201);
    expect(replyJson(first)).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(replyJson(second).id).not.toBe(replyJson(first).id);
    expect((await emulators.items()).length).toBe(itemsBefore);
    expect(await emulators.items(visitor.email)).toEqual([]);
  });

  test('the send route answers 200 with the success message, and sends, stores and counts nothing', async () => {
    const visitor = filledIn();
    const client = newClient();

    const replies = [];
    for (let attempt = 0; attempt < 12; attempt += 1) replies.push(await sendFrom(client, visitor));

    for (const reply of replies) {
      expect(reply.statusCode).toBe(200);
      expect(replyJson(reply)).toEqual({ success: true, message: sentMessage });
    }
    expect(await emulators.emails(visitor.email)).toEqual([]);
    expect(await emulators.items(visitor.email)).toEqual([]);
    // Twelve caught sends used none of the client's 10 sends an hour, nor the address's 3 a day.
    const genuine = { name: visitor.name, email: visitor.email };
    expect((await sendFrom(client, genuine)).statusCode).toBe(200);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test('an empty or blank website field is a person: the request is saved and sent', async () => {
    const visitor = { ...newVisitor(), website: '  ' };

    expect((await save(postEvent(saveRoute, visitor))).statusCode).toBe(201);
    expect((await send(postEvent(sendRoute, visitor, { sourceIp: newClient() }))).statusCode).toBe(200);

    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    expect(await emulators.items(visitor.email)).toEqual([expect.not.objectContaining({ website: expect.anything() })]);
  });

  test('a website field that is not text, or longer than 2,048 characters, is bad input: 400', async () => {
    const tooLong = { ...newVisitor(), website: 'x'.repeat(2049) };
    const notText = { ...newVisitor(), website: 42 };

    expect(replyJson(await save(postEvent(saveRoute, tooLong)))).toEqual({
      error: 'Website must be at most 2048 characters.',
      code: 'invalid_request',
    });
    expect((await sendFrom(newClient(), notText as never)).statusCode).toBe(400);
  });
});
