/**
 * The SES events function through the real SDK against dynalite: SES's events as EventBridge
 * delivers them (the `detail` is SES's event record, with the message's tags) mark the request
 * they name, and a permanent bounce or a complaint suppresses the mailbox, so the next request to
 * it, in any spelling, is refused without a send.
 */

import type { EventBridgeEvent } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { suppressionIdOf } from '../../../lambdas/mail/suppressions';
import { handler as sesEventsHandler } from '../../../lambdas/ses-events/handler';
import type { SesEventRecord } from '../../../lambdas/ses-events/ses-events';
import { documented, type Handler } from '../support/documented-handler';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';

let emulators: HandlerStack;
let save: Handler;
let send: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack();
  save = documented((await import('../../../lambdas/save-request/handler')).handler);
  send = documented((await import('../../../lambdas/send-cheat-sheet/handler')).handler);
});
afterAll(() => emulators?.stop());

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.events.${visitorNumber}@example.com` });

const detailTypes = { Delivery: 'Email Delivered', Bounce: 'Email Bounced', Complaint: 'Email Complaint Received' };

/** An SES event as EventBridge's default bus hands it to a rule's target. */
function sesEvent(
  eventType: keyof typeof detailTypes,
  sent: { id: string; ses_message_id?: string; email: string },
  detail: Partial<SesEventRecord> = {},
): EventBridgeEvent<string, SesEventRecord> {
  return {
    version: '0',
    id: `event-${Math.random()}`,
    'detail-type': detailTypes[eventType],
    source: 'aws.ses',
    account: '123456789012',
    time: '2026-01-01T00:00:05Z',
    region: 'us-east-1',
    resources: ['arn:aws:ses:us-east-1:123456789012:configuration-set/cheat-sheet'],
    detail: {
      eventType,
      mail: {
        timestamp: '2026-01-01T00:00:00.000Z',
        messageId: sent.ses_message_id,
        destination: [sent.email],
        tags: { 'ses:configuration-set': ['cheat-sheet'], request_id: [sent.id] },
      },
      ...detail,
    },
  };
}

const permanentBounce = (email: string): Partial<SesEventRecord> => ({
  bounce: {
    bounceType: 'Permanent',
    timestamp: '2026-01-01T00:00:04.000Z',
    bouncedRecipients: [{ emailAddress: email }],
  },
});

/** Saves and sends for a new visitor; the sent request's item. */
async function sentRequest(visitor = newVisitor()) {
  await save(postEvent(saveRoute, visitor));
  expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(200);
  const [item] = await emulators.items(visitor.email);
  return { visitor, item: item! };
}

describe('ses-events handler', () => {
  test('a permanent bounce marks the record bounced, and the next request to that mailbox is refused without sending', async () => {
    const { visitor, item } = await sentRequest();

    await sesEventsHandler(sesEvent('Bounce', item, permanentBounce(visitor.email)));

    expect((await emulators.items(visitor.email))[0]).toMatchObject({
      delivery_status: 'bounced',
      bounced_at: '2026-01-01T00:00:04.000Z',
      cheat_sheet_sent: true,
      ses_message_id: item.ses_message_id,
    });
    // A +tag spelling of the same mailbox: refused at save and at send, nothing stored or sent.
    const variant = { name: visitor.name, email: visitor.email.replace('@', '+again@') };
    const saved = await save(postEvent(saveRoute, variant));
    const sent = await send(postEvent(sendRoute, variant));
    expect([saved.statusCode, replyJson(saved).code]).toEqual([400, 'address_suppressed']);
    expect([sent.statusCode, replyJson(sent).code]).toEqual([400, 'address_suppressed']);
    expect(replyJson(sent).error).not.toMatch(/domain|verify/i);
    expect(await emulators.items(variant.email)).toEqual([]);
    expect(await emulators.emails(variant.email)).toEqual([]);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test("the suppression is stored under the mailbox's keyed hash: no address, no plain SHA-256 in the counters table", async () => {
    const { visitor, item } = await sentRequest();

    await sesEventsHandler(sesEvent('Bounce', item, permanentBounce(visitor.email)));

    const { Items = [] } = await emulators.dynamoDb.send(
      new ScanCommand({ TableName: emulators.stack.limitCountersTableName }),
    );
    const ids = Items.map((stored) => String(stored.id));
    expect(ids).toContain(suppressionIdOf(visitor.email, emulators.addressKey));
    expect(ids).not.toContain(`suppressed#${createHash('sha256').update(visitor.email).digest('hex')}`);
    expect(JSON.stringify(Items)).not.toContain(visitor.email.split('@')[0]);
  });

  test('without the deployment secret a bounce fails (so Lambda retries it), while a delivery is still recorded', async () => {
    const { visitor, item } = await sentRequest();
    const saved = { ...process.env };
    delete process.env.CLIENT_ADDRESS_SOURCE;
    delete process.env.CLIENT_ADDRESS_KEY;
    delete process.env.ORIGIN_SECRET_ARN;
    try {
      await sesEventsHandler(sesEvent('Delivery', item, { delivery: { timestamp: '2026-01-01T00:00:03.000Z' } }));
      await expect(sesEventsHandler(sesEvent('Bounce', item, permanentBounce(visitor.email)))).rejects.toMatchObject({
        kind: 'misconfigured',
      });
    } finally {
      Object.assign(process.env, saved);
    }

    expect((await emulators.items(visitor.email))[0]!.delivery_status).toBe('delivered');
    expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(200);
  });

  test('a delivery marks the record delivered; the same event again changes nothing', async () => {
    const { visitor, item } = await sentRequest();
    const delivery = sesEvent('Delivery', item, { delivery: { timestamp: '2026-01-01T00:00:03.000Z' } });

    await sesEventsHandler(delivery);
    const afterFirst = await emulators.items(visitor.email);
    await sesEventsHandler(delivery);

    expect(afterFirst[0]).toMatchObject({ delivery_status: 'delivered', delivered_at: '2026-01-01T00:00:03.000Z' });
    expect(await emulators.items(visitor.email)).toEqual(afterFirst);
  });

  test('a complaint after the delivery marks it complained and suppresses the mailbox', async () => {
    const { visitor, item } = await sentRequest();

    await sesEventsHandler(sesEvent('Delivery', item, { delivery: { timestamp: '2026-01-01T00:00:03.000Z' } }));
    await sesEventsHandler(
      sesEvent('Complaint', item, {
        complaint: { timestamp: '2026-01-01T01:00:00.000Z', complainedRecipients: [{ emailAddress: visitor.email }] },
      }),
    );

    expect((await emulators.items(visitor.email))[0]).toMatchObject({
      delivery_status: 'complained',
      delivered_at: '2026-01-01T00:00:03.000Z',
      complained_at: '2026-01-01T01:00:00.000Z',
    });
    expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(400);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test('a late delivery event does not undo a bounce', async () => {
    const { visitor, item } = await sentRequest();

    await sesEventsHandler(sesEvent('Bounce', item, permanentBounce(visitor.email)));
    await sesEventsHandler(sesEvent('Delivery', item, { delivery: { timestamp: '2026-01-01T00:00:03.000Z' } }));

    expect((await emulators.items(visitor.email))[0]!.delivery_status).toBe('bounced');
  });

  test('a late delivery event does not undo a complaint', async () => {
    const { visitor, item } = await sentRequest();

    await sesEventsHandler(
      sesEvent('Complaint', item, {
        complaint: { timestamp: '2026-01-01T01:00:00.000Z', complainedRecipients: [{ emailAddress: visitor.email }] },
      }),
    );
    await sesEventsHandler(sesEvent('Delivery', item, { delivery: { timestamp: '2026-01-01T00:00:03.000Z' } }));

    expect((await emulators.items(visitor.email))[0]).toMatchObject({
      delivery_status: 'complained',
      complained_at: '2026-01-01T01:00:00.000Z',
    });
    expect((await emulators.items(visitor.email))[0]).not.toHaveProperty('delivered_at');
  });

  test('a transient bounce changes nothing and suppresses nothing', async () => {
    const { visitor, item } = await sentRequest();

    await sesEventsHandler(
      sesEvent('Bounce', item, {
        bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: visitor.email }] },
      }),
    );

    expect((await emulators.items(visitor.email))[0]!.delivery_status).toBe('sent');
    await save(postEvent(saveRoute, visitor));
    expect((await send(postEvent(sendRoute, visitor))).statusCode).toBe(200);
  });

  test('an event for another message than the one on record changes nothing', async () => {
    const { visitor, item } = await sentRequest();

    await sesEventsHandler(sesEvent('Delivery', { ...item, ses_message_id: 'another-message' }));

    expect((await emulators.items(visitor.email))[0]!.delivery_status).toBe('sent');
  });
});
