/**
 * The send function when a service fails. SES faults come from the fault injector in front of
 * aws-ses-v2-local; an unreachable service is an endpoint where nothing listens. Each test that
 * changes the environment imports a fresh copy of the handler (clients and the PDF are per
 * container, as in Lambda).
 */

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { sdkTimeouts, worstCaseSdkCallMs } from '../../../core/config/sdk-timeouts';
import { addressDailyCapItemId } from '../../../core/data/address-hash';
import { closedPortUrl } from '../support/closed-port';
import { startHangingEndpoint } from '../support/hanging-endpoint';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';
import { withFreshHandler as withFreshDocumentedHandler } from '../support/fresh-handler';

let emulators: HandlerStack;

beforeAll(async () => {
  emulators = await startHandlerStack({ emailFaultInjection: true });
});
afterAll(() => emulators?.stop());
afterEach(() => emulators.stack.setEmailFault(null));

/** A fresh container's handler (documented), with some environment variables changed while it loads and runs. */
function withFreshHandler<T>(
  modulePath: string,
  env: Record<string, string | undefined>,
  use: (handler: Handler) => Promise<T>,
): Promise<T> {
  return withFreshDocumentedHandler(modulePath, env, use, documented);
}

const sendHandlerPath = '../../../lambdas/send-cheat-sheet/handler';
const saveHandlerPath = '../../../lambdas/save-request/handler';

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.fail.${visitorNumber}@example.com` });

/** A failure reply: the status, only `success` and `error`, and no trace of code or SDK detail. */
function expectCleanFailure(reply: APIGatewayProxyStructuredResultV2, status: number): string {
  expect(reply.statusCode).toBe(status);
  const body = replyJson(reply);
  expect(Object.keys(body)).toEqual(['success', 'error', 'code']);
  expect(body.success).toBe(false);
  const error = body.error as string;
  expect(error).not.toMatch(/\bat \S+:\d+|Exception|ECONNREFUSED|127\.0\.0\.1|stack/i);
  return error;
}

/** A send with no saved request that SES provably did not take: on record, failed, with the failure's code. */
const failedSend = (code: string) =>
  expect.objectContaining({ cheat_sheet_sent: false, delivery_status: 'failed', failure_code: code });

describe('send-cheat-sheet handler when a service fails', () => {
  let send: Handler;
  let save: Handler;
  beforeAll(async () => {
    send = documented(((await import(sendHandlerPath)) as { handler: Handler }).handler);
    save = documented(((await import(saveHandlerPath)) as { handler: Handler }).handler);
  });

  test.each([
    ['an unverified sender identity (MessageRejected)', 'unverified-sender'],
    ['an unverified MAIL FROM domain', 'unverified-mail-from-domain'],
  ] as const)('SES refusing %s gives 502 and an error about the domain or verification', async (_, fault) => {
    const visitor = newVisitor();
    const { id } = replyJson(await save(postEvent(saveRoute, visitor)));
    emulators.stack.setEmailFault(fault);

    const reply = await send(postEvent(sendRoute, visitor));

    const error = expectCleanFailure(reply, 502);
    expect(error).toMatch(/domain/);
    expect(error).toMatch(/verif/);
    expect(error).toBe(
      "The sender's email domain is not verified with the email service. Please verify the domain or contact support.",
    );
    expect(await emulators.emails(visitor.email)).toEqual([]);
    expect(await emulators.items(visitor.email)).toEqual([expect.objectContaining({ id, cheat_sheet_sent: false })]);
  });

  test('SES throttling gives the success: the request is queued, and sent once when SES takes it again', async () => {
    const visitor = newVisitor();
    emulators.stack.setEmailFault('throttled');

    const reply = await send(postEvent(sendRoute, visitor));
    emulators.stack.setEmailFault(null);

    expect(reply.statusCode).toBe(200);
    expect(replyJson(reply)).toEqual({ success: true, message: expect.stringMatching(/sent the cheat sheet/) });
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
    expect(await emulators.items(visitor.email)).toEqual([
      expect.objectContaining({ delivery_status: 'sent', cheat_sheet_sent: true }),
    ]);
  });

  test('an SES internal error gives 503 and records the send failed, so a resend may take it', async () => {
    const visitor = newVisitor();
    emulators.stack.setEmailFault('internal-error');

    const reply = await send(postEvent(sendRoute, visitor));

    expectCleanFailure(reply, 503);
    expect(await emulators.items(visitor.email)).toEqual([failedSend('email_service_unavailable')]);
  });

  test('an SES that never answers gives 503 and records the send unknown: it may have gone out', async () => {
    const visitor = newVisitor();
    const { id } = replyJson(await save(postEvent(saveRoute, visitor)));
    const stalled = await startHangingEndpoint();
    try {
      const reply = await withFreshHandler(sendHandlerPath, { AWS_ENDPOINT_URL_SESV2: stalled.url }, (handler) =>
        handler(postEvent(sendRoute, visitor)),
      );

      expectCleanFailure(reply, 503);
      expect(await emulators.items(visitor.email)).toEqual([
        expect.objectContaining({ id, cheat_sheet_sent: false, delivery_status: 'unknown' }),
      ]);
    } finally {
      await stalled.close();
    }
  }, 20_000);

  test("a send SES failed does not use up one of the address's three daily sends", async () => {
    const visitor = newVisitor();
    emulators.stack.setEmailFault('internal-error');
    expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(503);
    emulators.stack.setEmailFault(null);

    const statuses = [];
    for (let sent = 0; sent < 3; sent += 1) statuses.push((await send(postEvent(sendRoute, visitor))).statusCode);

    expect(statuses).toEqual([200, 200, 200]);
    expect(await emulators.emails(visitor.email)).toHaveLength(3);
    const counter = (await emulators.addressDailyCapItems()).find(
      (item) => item.id === addressDailyCapItemId(visitor.email, emulators.addressKey),
    );
    expect(counter?.recent_sends).toHaveLength(3);
  });

  test("a send SES failed gives back its slot of the client's hourly limit and of the daily budget", async () => {
    const totalCounted = async () =>
      (await emulators.counterItems()).reduce((total, counter) => total + (counter.sends ?? 0), 0);
    const before = await totalCounted();
    emulators.stack.setEmailFault('internal-error');

    const reply = await send(postEvent(sendRoute, newVisitor(), { sourceIp: '192.0.2.77' }));

    expect(reply.statusCode).toBe(503);
    expect(await totalCounted()).toBe(before);
  });

  test('an unreachable SES gives 503 and records the send failed: the connection was refused, nothing went out', async () => {
    const visitor = newVisitor();

    const reply = await withFreshHandler(
      sendHandlerPath,
      { AWS_ENDPOINT_URL_SESV2: await closedPortUrl() },
      (handler) => handler(postEvent(sendRoute, visitor)),
    );

    const error = expectCleanFailure(reply, 503);
    expect(error).toMatch(/email service is temporarily unavailable/);
    expect(await emulators.items(visitor.email)).toEqual([failedSend('email_service_unavailable')]);
  });

  test('an unreachable DynamoDB gives 503 and sends nothing, since the daily cap cannot be checked', async () => {
    const visitor = newVisitor();

    const reply = await withFreshHandler(
      sendHandlerPath,
      { AWS_ENDPOINT_URL_DYNAMODB: await closedPortUrl() },
      (handler) => handler(postEvent(sendRoute, visitor)),
    );

    const error = expectCleanFailure(reply, 503);
    expect(error).toMatch(/database is temporarily unavailable/);
    expect(await emulators.emails(visitor.email)).toEqual([]);
  });

  test('a PDF missing from the bucket gives 503 and sends nothing', async () => {
    const visitor = newVisitor();
    await emulators.deletePdf();
    try {
      const reply = await withFreshHandler(sendHandlerPath, {}, (handler) => handler(postEvent(sendRoute, visitor)));

      const error = expectCleanFailure(reply, 503);
      expect(error).toMatch(/cheat sheet is temporarily unavailable/);
      expect(await emulators.emails(visitor.email)).toEqual([]);
      expect(await emulators.items(visitor.email)).toEqual([]);
    } finally {
      await emulators.restorePdf();
    }
  });

  test('a PDF that comes back is picked up by the next invocation, not cached as missing', async () => {
    const visitor = newVisitor();
    await emulators.deletePdf();

    const replies = await withFreshHandler(sendHandlerPath, {}, async (handler) => {
      const first = await handler(postEvent(sendRoute, visitor));
      await emulators.restorePdf();
      return [first, await handler(postEvent(sendRoute, visitor))];
    });

    expect(replies.map((reply) => reply.statusCode)).toEqual([503, 200]);
  });

  test('a missing SENDER_EMAIL gives 500 and an error naming no variable', async () => {
    const reply = await withFreshHandler(sendHandlerPath, { SENDER_EMAIL: undefined }, (handler) =>
      handler(postEvent(sendRoute, newVisitor())),
    );

    const error = expectCleanFailure(reply, 500);
    expect(error).toBe('The service is not configured correctly. Please contact support.');
  });

  test('a missing SEND_QUOTA_TABLE_NAME gives 500 and sends nothing, since the daily cap cannot be checked', async () => {
    const visitor = newVisitor();

    const reply = await withFreshHandler(sendHandlerPath, { SEND_QUOTA_TABLE_NAME: undefined }, (handler) =>
      handler(postEvent(sendRoute, visitor)),
    );

    expect(expectCleanFailure(reply, 500)).toBe('The service is not configured correctly. Please contact support.');
    expect(await emulators.emails(visitor.email)).toEqual([]);
  });
});

describe('save-request handler when DynamoDB fails', () => {
  test("a DynamoDB that never answers gives 503 after two attempts, within the function's 10 s", async () => {
    const stalled = await startHangingEndpoint();
    try {
      const started = Date.now();

      const reply = await withFreshHandler(saveHandlerPath, { AWS_ENDPOINT_URL_DYNAMODB: stalled.url }, (handler) =>
        handler(postEvent(saveRoute, newVisitor())),
      );

      const elapsedMs = Date.now() - started;
      expect(reply.statusCode).toBe(503);
      expect(stalled.requests()).toBe(sdkTimeouts.maxAttempts);
      expect(elapsedMs).toBeGreaterThanOrEqual(sdkTimeouts.maxAttempts * sdkTimeouts.requestTimeoutMs - 100);
      expect(elapsedMs).toBeLessThan(worstCaseSdkCallMs);
    } finally {
      await stalled.close();
    }
  }, 20_000);

  test('an unreachable DynamoDB gives 503 with an error', async () => {
    const reply = await withFreshHandler(
      saveHandlerPath,
      { AWS_ENDPOINT_URL_DYNAMODB: await closedPortUrl() },
      (handler) => handler(postEvent(saveRoute, newVisitor())),
    );

    expect(reply.statusCode).toBe(503);
    expect(replyJson(reply)).toEqual({
      error: 'Our request database is temporarily unavailable. Please try again in a few minutes.',
      code: 'storage_unavailable',
    });
  });
});
