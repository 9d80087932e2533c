/**
 * Every consenting lead reaches the author's list once, as the provider sees it: each adapter
 * (Kit, MailerLite, Mailchimp) and the signed webhook against a stand-in provider on loopback that
 * counts what it received, the request items in DynamoDB (dynalite) through the real SDK, and the
 * queue as SQS behaves on a clock the test moves (test/lambdas/support/simulated-handoff-queue.ts).
 */

import { PutCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import type { HandoffRecord, MailProvider } from '../../../core/data/mail-provider';
import { handoffRecordsTable, type HandoffItem } from '../../../lambdas/lead-handoff/handoff-records';
import {
  handOffMessages,
  MissingProviderKeyError,
  type HandoffDependencies,
  type QueuedHandoff,
} from '../../../lambdas/lead-handoff/lead-handoff';
import { mailProviderClient, type MailProviderSettings } from '../../../lambdas/mail-provider/mail-provider-client';
import { startStandInMailProvider, type StandInMailProvider } from '../../support/stand-in-mail-provider';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { SimulatedHandoffQueue } from '../support/simulated-handoff-queue';

const keys: Record<MailProvider, string> = {
  kit: 'kit_test_key',
  mailerlite: 'mailerlite-test-token',
  mailchimp: '0123456789abcdef0123456789abcdef-us21',
  webhook: `whsec_${Buffer.from('a signing secret of 32 bytes!!!!').toString('base64')}`,
};
const lists: Record<MailProvider, string | undefined> = {
  kit: '1234567',
  mailerlite: '98765432109876543',
  mailchimp: 'a1b2c3d4e5',
  webhook: undefined,
};
const start = new Date('2026-03-09T10:00:00.000Z');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let handlerStack: HandlerStack;
beforeAll(async () => {
  handlerStack = await startHandlerStack();
});
afterAll(() => handlerStack?.stop());

let leadNumber = 0;
async function saveLead({ consent = true, joined = true, canary = false } = {}): Promise<{
  id: string;
  email: string;
}> {
  leadNumber += 1;
  const id = `handoff-${leadNumber}-${Date.now()}`;
  const email = `Reader.${leadNumber}@Example.com`.toLowerCase();
  await handlerStack.dynamoDb.send(
    new PutCommand({
      TableName: handlerStack.stack.tableName,
      Item: {
        id,
        name: `Reader ${leadNumber}`,
        email,
        requested_at: start.toISOString(),
        cheat_sheet_sent: false,
        delivery_status: 'requested',
        ...(consent && {
          consent: {
            at: start.toISOString(),
            statement: 'I confirm that I have purchased the book',
            mail_provider: 'Kit',
            mailing_list: { joined, statement: "Also add me to the author's mailing list" },
          },
        }),
        ...(canary && { canary: true }),
      },
    }),
  );
  return { id, email };
}

async function handoffOf(id: string): Promise<HandoffRecord | undefined> {
  const item = (await handlerStack.items()).find((candidate) => candidate.id === id) as HandoffItem | undefined;
  return item?.mail_provider_handoff;
}

describe.each(['kit', 'mailerlite', 'mailchimp', 'webhook'] as const)('handing leads to %s', (provider) => {
  let standIn: StandInMailProvider;
  let queue: SimulatedHandoffQueue;
  let deps: HandoffDependencies;
  const handOff = (batch: QueuedHandoff[]) => handOffMessages(batch, deps);

  beforeEach(async () => {
    standIn = await startStandInMailProvider({ provider, key: keys[provider], list: lists[provider] });
    queue = new SimulatedHandoffQueue(start);
    deps = {
      provider,
      records: handoffRecordsTable(handlerStack.dynamoDb, handlerStack.stack.tableName),
      client: async () => mailProviderClient(settings()),
      queue,
      now: queue.clock,
      logger: silent,
    };
  });
  const settings = (): MailProviderSettings => ({
    provider,
    key: keys[provider],
    list: lists[provider],
    ...(provider === 'webhook' ? { webhookUrl: standIn.url } : { baseUrl: standIn.url }),
    timeoutMs: 500,
  });
  afterEach(() => standIn.close());

  test('a reader who ticked the list box becomes one subscriber, asked to confirm, recorded as accepted', async () => {
    const lead = await saveLead();
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.drain(handOff);

    expect([...standIn.subscribers.keys()]).toEqual([lead.email]);
    const subscriber = standIn.subscribers.get(lead.email)!;
    expect(subscriber.name).toMatch(/^Reader \d+$/);
    if (provider !== 'webhook') expect([...subscriber.lists]).toEqual([lists[provider]]);
    // Double opt-in unless the deployment turns it off: the provider e-mails the reader to confirm.
    expect(subscriber.confirmationAsked).toBe(true);
    expect(await handoffOf(lead.id)).toMatchObject({
      provider,
      result: 'accepted',
      attempts: 1,
      accepted_at: start.toISOString(),
    });
    expect(queue.size).toBe(0);
    expect(queue.deadLetters).toEqual([]);
  });

  test('a provider down for three hours: retried on the Standard Webhooks schedule, then one subscriber', async () => {
    const lead = await saveLead();
    standIn.down = () => queue.now < start.getTime() + 3 * 3600 * 1000;
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.drain(handOff);

    // Immediately, then 5 s, 5 min, 30 min and 2 h later (all while down), then 5 h later: up.
    const offsets = queue.deliveries.map(({ at }) => (at - start.getTime()) / 1000);
    expect(offsets).toEqual([0, 5, 5 + 300, 5 + 300 + 1800, 5 + 300 + 1800 + 7200, 5 + 300 + 1800 + 7200 + 18000]);
    expect(standIn.subscribers.size).toBe(1);
    expect(await handoffOf(lead.id)).toMatchObject({ result: 'accepted', attempts: 6 });
    expect(queue.deadLetters).toEqual([]);
  });

  test('a duplicate delivery from the queue: the provider hears of the lead once', async () => {
    const lead = await saveLead();
    await queue.enqueue([{ requestId: lead.id }, { requestId: lead.id }]);
    await queue.deliver(handOff);
    const received = standIn.requests.length;
    // SQS's at-least-once: the same message again, after the first was accepted.
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.deliver(handOff, { twice: true });

    expect(standIn.subscribers.size).toBe(1);
    expect(standIn.requests.length).toBe(received);
    if (provider === 'webhook') expect(standIn.webhookDeliveries.size).toBe(1);
  });

  test('a timeout after the provider accepted: the retry leaves one subscriber', async () => {
    const lead = await saveLead();
    standIn.fail({ acceptThenStall: true });
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.drain(handOff);

    expect(queue.deliveries).toHaveLength(2);
    expect(standIn.subscribers.size).toBe(1);
    expect(await handoffOf(lead.id)).toMatchObject({ result: 'accepted', attempts: 2 });
    if (provider === 'webhook') {
      // Both deliveries carry the lead's one webhook-id: the receiver acted once.
      expect([...standIn.webhookDeliveries.keys()]).toEqual([`lead_${lead.id}`]);
      expect(standIn.webhookDeliveries.get(`lead_${lead.id}`)).toHaveLength(2);
    }
  });

  test('429 with Retry-After: the next attempt waits as long as the provider asked', async () => {
    const lead = await saveLead();
    standIn.fail({ status: 429, retryAfter: '120' });
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.deliver(handOff);
    expect(await handoffOf(lead.id)).toMatchObject({
      result: 'retrying',
      status: 429,
      next_attempt_at: new Date(start.getTime() + 120_000).toISOString(),
    });
    await queue.drain(handOff);

    expect(queue.deliveries.map(({ at }) => (at - start.getTime()) / 1000)).toEqual([0, 120]);
    expect(standIn.subscribers.size).toBe(1);
  });

  test.each([
    [401, 'authentication'],
    [403, 'authentication'],
    [410, 'gone'],
  ] as const)('%i stops at once: no retry, the message in the dead-letter queue', async (status, reason) => {
    const lead = await saveLead();
    standIn.fail({ status });
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.drain(handOff);

    expect(queue.deliveries).toHaveLength(1);
    expect(queue.deadLetters).toEqual([{ body: JSON.stringify({ requestId: lead.id }), reason }]);
    expect(await handoffOf(lead.id)).toMatchObject({ result: 'stopped', reason, status, attempts: 1 });
    expect(standIn.subscribers.size).toBe(0);
  });

  test('down for longer than the schedule: eight attempts over about a day, then the dead-letter queue', async () => {
    const lead = await saveLead();
    standIn.down = () => true;
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.drain(handOff);

    const last = queue.deliveries.at(-1)!.at - start.getTime();
    expect(queue.deliveries).toHaveLength(8);
    // 5 s + 5 min + 30 min + 2 h + 5 h + 10 h + 10 h.
    expect(last / 1000).toBe(99_305);
    expect(queue.deadLetters).toEqual([{ body: JSON.stringify({ requestId: lead.id }), reason: 'exhausted' }]);
    expect(await handoffOf(lead.id)).toMatchObject({ result: 'stopped', reason: 'exhausted', attempts: 8 });
  });

  test('a request erased before its attempt: the provider hears nothing', async () => {
    const lead = await saveLead();
    await queue.enqueue([{ requestId: lead.id }]);
    await handlerStack.dynamoDb.send(
      new DeleteCommand({ TableName: handlerStack.stack.tableName, Key: { id: lead.id } }),
    );
    await queue.drain(handOff);

    expect(standIn.requests).toEqual([]);
    expect((await handlerStack.items()).some((item) => item.id === lead.id)).toBe(false);
  });

  test('with double opt-in turned off, the reader joins at once, not asked to confirm', async () => {
    const lead = await saveLead();
    deps = { ...deps, client: async () => mailProviderClient({ ...settings(), doubleOptIn: false }) };
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.drain(handOff);

    expect(standIn.subscribers.get(lead.email)?.confirmationAsked).toBe(false);
  });

  test('a reader who left the list box unticked is never handed off', async () => {
    const lead = await saveLead({ joined: false });
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.drain(handOff);

    expect(standIn.requests).toEqual([]);
    expect(await handoffOf(lead.id)).toBeUndefined();
  });

  test("the canary's request is never handed off, even carrying a consent", async () => {
    const lead = await saveLead({ canary: true });
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.drain(handOff);

    expect(standIn.requests).toEqual([]);
    expect(await handoffOf(lead.id)).toBeUndefined();
  });

  test('a request without consent is never handed off', async () => {
    const lead = await saveLead({ consent: false });
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.drain(handOff);

    expect(standIn.requests).toEqual([]);
    expect(await handoffOf(lead.id)).toBeUndefined();
  });
});

describe('the key', () => {
  test('not set yet: the hand-off stops as an authentication failure, for the operator to set it', async () => {
    const queue = new SimulatedHandoffQueue(start);
    const lead = await saveLead();
    await queue.enqueue([{ requestId: lead.id }]);
    await queue.drain((batch) =>
      handOffMessages(batch, {
        provider: 'kit',
        records: handoffRecordsTable(handlerStack.dynamoDb, handlerStack.stack.tableName),
        client: () => Promise.reject(new MissingProviderKeyError('not set')),
        queue,
        now: queue.clock,
        logger: silent,
      }),
    );
    expect(queue.deadLetters).toEqual([{ body: JSON.stringify({ requestId: lead.id }), reason: 'authentication' }]);
    expect(await handoffOf(lead.id)).toMatchObject({ result: 'stopped', reason: 'authentication' });
  });
});

describe('the signed webhook', () => {
  test('its signature verifies with the standardwebhooks package, over id.timestamp.body', async () => {
    const standIn = await startStandInMailProvider({ provider: 'webhook', key: keys.webhook });
    try {
      const client = mailProviderClient({ provider: 'webhook', key: keys.webhook, webhookUrl: standIn.url });
      const answer = await client.handOff({
        id: 'req-1',
        name: 'Ada',
        email: 'ada@example.com',
        requestedAt: start.toISOString(),
        consentedAt: start.toISOString(),
      });
      expect(answer).toEqual({ kind: 'accepted', status: 204 });
      const [request] = standIn.requests;
      expect(request.headers['webhook-id']).toBe('lead_req-1');
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      const payload = new Webhook(keys.webhook).verify(request.body, request.headers as Record<string, string>);
      expect(payload).toMatchObject({
        type: 'lead.created',
        data: { id: 'req-1', email: 'ada@example.com', name: 'Ada' },
      });
      expect(standIn.rejectedSignatures).toBe(0);
    } finally {
      await standIn.close();
    }
  });

  test('signed with another secret, the receiver refuses it', async () => {
    const standIn = await startStandInMailProvider({ provider: 'webhook', key: keys.webhook });
    try {
      const other = `whsec_${Buffer.from('another secret, also 32 bytes!!!').toString('base64')}`;
      const answer = await mailProviderClient({ provider: 'webhook', key: other, webhookUrl: standIn.url }).handOff({
        id: 'req-2',
        name: 'Ada',
        email: 'ada@example.com',
        requestedAt: start.toISOString(),
        consentedAt: start.toISOString(),
      });
      expect(answer).toMatchObject({ kind: 'stop', reason: 'rejected', status: 400 });
      expect(standIn.rejectedSignatures).toBe(1);
      expect(standIn.subscribers.size).toBe(0);
    } finally {
      await standIn.close();
    }
  });
});
