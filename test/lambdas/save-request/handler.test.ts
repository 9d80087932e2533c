import { badInputs } from '../support/bad-inputs';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { base64Event, postEvent, replyJson, saveRoute, withMethod } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

let emulators: HandlerStack;
let handler: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack();
  handler = documented((await import('../../../lambdas/save-request/handler')).handler);
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.${visitorNumber}@example.com` });

describe('save-request handler', () => {
  test('writes one unsent request and replies 201 with its id', async () => {
    const visitor = newVisitor();
    const before = Date.now();

    const reply = await handler(postEvent(saveRoute, visitor));

    expect(reply.statusCode).toBe(201);
    const { id } = replyJson(reply);
    expect(typeof id).toBe('string');
    const items = await emulators.items(visitor.email);
    expect(items).toEqual([
      {
        id,
        name: visitor.name,
        email: visitor.email,
        cheat_sheet_sent: false,
        requested_at: expect.any(String),
        delivery_status: 'requested',
        status_at: expect.any(String),
        // On the unsent check's sparse index until it is sent.
        unsent_queue: 'unsent',
      },
    ]);
    const requestedAt = Date.parse(items[0]!.requested_at);
    expect(items[0]!.requested_at).toBe(new Date(requestedAt).toISOString());
    expect(requestedAt).toBeGreaterThanOrEqual(before - 1);
    expect(requestedAt).toBeLessThanOrEqual(Date.now());
  });

  test('with REQUEST_RETENTION_DAYS, the request carries an epoch-seconds expires_at that many days on', async () => {
    const visitor = newVisitor();
    process.env.REQUEST_RETENTION_DAYS = '30';
    try {
      expect((await handler(postEvent(saveRoute, visitor))).statusCode).toBe(201);
    } finally {
      delete process.env.REQUEST_RETENTION_DAYS;
    }

    const [item] = await emulators.items(visitor.email);
    const requestedAtSeconds = Math.ceil(Date.parse(item!.requested_at) / 1000);
    expect(item!.expires_at).toBe(requestedAtSeconds + 30 * 24 * 60 * 60);
  });

  test('replies as JSON that is never cached', async () => {
    const reply = await handler(postEvent(saveRoute, newVisitor()));

    expect(reply.headers).toEqual({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  });

  test('stores the name and address trimmed, and the address lower-cased', async () => {
    const reply = await handler(
      postEvent(saveRoute, { name: '  Grace Hopper  ', email: '  Grace.Hopper@Example.COM ' }),
    );

    expect(reply.statusCode).toBe(201);
    const [item] = await emulators.items('grace.hopper@example.com');
    expect(item).toMatchObject({ name: 'Grace Hopper', email: 'grace.hopper@example.com' });
  });

  test('ignores unknown keys, including a cheat_sheet_sent the client sends', async () => {
    const visitor = newVisitor();

    const reply = await handler(postEvent(saveRoute, { ...visitor, cheat_sheet_sent: true, role: 'admin' }));

    expect(reply.statusCode).toBe(201);
    const [item] = await emulators.items(visitor.email);
    expect(item!.cheat_sheet_sent).toBe(false);
    expect(item).not.toHaveProperty('role');
  });

  test('accepts a JSON content type with a UTF-8 charset', async () => {
    const reply = await handler(postEvent(saveRoute, newVisitor(), { contentType: 'application/json; charset=UTF-8' }));

    expect(reply.statusCode).toBe(201);
  });

  test('accepts a base64-encoded body', async () => {
    const visitor = { name: 'José Núñez', email: 'jose@example.com' };

    const reply = await handler(base64Event(postEvent(saveRoute, visitor)));

    expect(reply.statusCode).toBe(201);
    expect(await emulators.items(visitor.email)).toEqual([expect.objectContaining(visitor)]);
  });

  test('accepts a name of exactly 100 characters and an address of exactly 254', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(email).toHaveLength(254);

    const reply = await handler(postEvent(saveRoute, { name: 'N'.repeat(100), email }));

    expect(reply.statusCode).toBe(201);
  });

  test.each(['GET', 'PUT', 'DELETE'])('refuses %s with 405 and Allow: POST, storing nothing', async (method) => {
    const visitor = newVisitor();

    const reply = await handler(withMethod(postEvent(saveRoute, visitor), method));

    expect(reply.statusCode).toBe(405);
    expect(reply.headers).toMatchObject({ Allow: 'POST' });
    expect(replyJson(reply)).toEqual({
      error: `${method} is not allowed here: please send the request with POST.`,
      code: 'method_not_allowed',
    });
    expect(await emulators.items(visitor.email)).toEqual([]);
  });

  test.each(badInputs)('refuses $description with $status and an error, storing nothing', async ({ event, status }) => {
    const itemsBefore = (await emulators.items()).length;

    const reply = await handler(event(saveRoute));

    expect(reply.statusCode).toBe(status);
    const body = replyJson(reply);
    expect(Object.keys(body)).toEqual(['error', 'code']);
    expect(typeof body.error).toBe('string');
    expect((body.error as string).length).toBeGreaterThan(10);
    expect((await emulators.items()).length).toBe(itemsBefore);
  });
});
