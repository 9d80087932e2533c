/**
 * The queued sender against the emulators, with SES's rate at 1 a second (the sandbox's): what
 * the send route hands to the send queue goes out once, at SES's pace, whatever the queue
 * delivers twice or a sender left half done.
 */

import { randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { failureKinds } from '../../../core/api/catalogue/failures';
import { requestsTable } from '../../../core/data/tables';
import { timeNeededPerAttemptMs } from '../../../lambdas/mail/email-sender';
import { cheatSheetRequestsTable } from '../../../lambdas/requests/cheat-sheet-requests';
import { queuedAttemptsTable } from '../../../lambdas/requests/queued-attempts';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';
import { capturedEmails } from '../../support/captured-emails';

let emulators: HandlerStack;
let save: Handler;
let send: Handler;
let queuedSend: (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>;

beforeAll(async () => {
  emulators = await startHandlerStack({ sesMaxSendRate: 1, emailFaultInjection: true });
  save = documented((await import('../../../lambdas/save-request/handler')).handler);
  send = documented((await import('../../../lambdas/send-cheat-sheet/handler')).handler);
  ({ handler: queuedSend } = await import('../../../lambdas/queued-send/handler'));
});
afterAll(() => emulators?.stop());
afterEach(() => emulators.stack.setEmailFault(null));

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Queued ${++visitorNumber}`, email: `ada.queued.${visitorNumber}@example.com` });
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

/** A message as the send route writes it, delivered as the queue's event source mapping does. */
const delivery = (message: { requestId: string; token: string }): SQSEvent => ({
  Records: [
    {
      messageId: randomUUID(),
      receiptHandle: 'handle',
      body: JSON.stringify(message),
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(Date.now()),
        SenderId: 'test',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:send-queue',
      awsRegion: 'us-east-1',
    },
  ],
});

/** A saved request claimed as the send route claims one before handing it to the queue: its id and token. */
async function acceptedRequest(visitor = newVisitor()) {
  const key = randomUUID();
  const { id } = replyJson(await save(postEvent(saveRoute, visitor, withKey(key)))) as { id: string };
  const token = randomUUID();
  const requests = cheatSheetRequestsTable(emulators.dynamoDb, requestsTable.name);
  expect(await requests.claim(id, token, new Date())).toBe(true);
  return { visitor, message: { requestId: id, token } };
}

/** Captured e-mails to `to`, read at once (the queue's own sends drained first only where a test says so). */
const emailsNow = (to: string) => capturedEmails(emulators.stack.urls.mail, to);

describe('the send route above SES’s rate', () => {
  test('answers three readers at once with the success, and each gets one e-mail, never two in one second', async () => {
    const visitors = [newVisitor(), newVisitor(), newVisitor()];
    for (const visitor of visitors) await save(postEvent(saveRoute, visitor));

    const replies = await Promise.all(visitors.map((visitor) => send(postEvent(sendRoute, visitor))));

    expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200, 200]);
    const emails = (await emulators.emails()).filter((email) =>
      visitors.some((visitor) => email.destination.to.includes(visitor.email)),
    );
    expect(emails.map((email) => email.destination.to[0]).sort()).toEqual(visitors.map((v) => v.email).sort());
    const seconds = emails.map((email) => (email as unknown as { at: number }).at);
    expect(new Set(seconds).size).toBe(seconds.length);
    const items = (await Promise.all(visitors.map((visitor) => emulators.items(visitor.email)))).flat();
    expect(items.map((item) => item.delivery_status)).toEqual(['sent', 'sent', 'sent']);
    // The pace had no slot for all three at once: the queued sender (which alone stamps its attempt) sent the rest.
    expect(items.filter((item) => item.send_attempt_at !== undefined).length).toBeGreaterThanOrEqual(1);
  }, 20_000);
});

describe('the queued sender', () => {
  test('sends an accepted request once, and records it sent', async () => {
    const { visitor, message } = await acceptedRequest();

    const reply = await queuedSend(delivery(message));

    expect(reply.batchItemFailures).toEqual([]);
    expect(await emailsNow(visitor.email)).toHaveLength(1);
    expect(await emulators.items(visitor.email)).toEqual([
      expect.objectContaining({ delivery_status: 'sent', cheat_sheet_sent: true }),
    ]);
  });

  test('sends nothing again when the queue delivers the same message twice', async () => {
    const { visitor, message } = await acceptedRequest();

    await queuedSend(delivery(message));
    const again = await queuedSend(delivery(message));

    expect(again.batchItemFailures).toEqual([]);
    expect(await emailsNow(visitor.email)).toHaveLength(1);
  });

  test('sends nothing when a sender stopped after calling SES: the request stays sending, for the unsent check', async () => {
    const { visitor, message } = await acceptedRequest();
    // What a sender records before its SES call; it then died before recording the outcome.
    await queuedAttemptsTable(emulators.dynamoDb, requestsTable.name).begin(
      message.requestId,
      message.token,
      new Date(),
    );

    const reply = await queuedSend(delivery(message));

    expect(reply.batchItemFailures).toEqual([]);
    expect(await emailsNow(visitor.email)).toEqual([]);
    expect(await emulators.items(visitor.email)).toEqual([expect.objectContaining({ delivery_status: 'sending' })]);
  });

  test('tries a throttled send again itself, at the next slot, and sends it once', async () => {
    const { visitor, message } = await acceptedRequest();
    emulators.stack.setEmailFault('throttled');
    const backInAWhile = setTimeout(() => emulators.stack.setEmailFault(null), 700);

    const reply = await queuedSend(delivery(message));
    clearTimeout(backInAWhile);

    expect(reply.batchItemFailures).toEqual([]);
    expect(await emailsNow(visitor.email)).toHaveLength(1);
  });

  test('with too little time left for an SES call, hands the message back, and its next delivery sends it', async () => {
    const { visitor, message } = await acceptedRequest();
    const short = { getRemainingTimeInMillis: () => timeNeededPerAttemptMs - 1 } as Context;
    const event = delivery(message);

    const first = await queuedSend(event, short);
    expect(first.batchItemFailures).toEqual([{ itemIdentifier: event.Records[0]!.messageId }]);
    expect(await emailsNow(visitor.email)).toEqual([]);

    const second = await queuedSend(event);
    expect(second.batchItemFailures).toEqual([]);
    expect(await emailsNow(visitor.email)).toHaveLength(1);
  });

  test("records SES's refusal of the sender as failed with its code, so resend may take it", async () => {
    const { visitor, message } = await acceptedRequest();
    emulators.stack.setEmailFault('unverified-sender');

    const reply = await queuedSend(delivery(message));

    expect(reply.batchItemFailures).toEqual([]);
    expect(await emulators.items(visitor.email)).toEqual([
      expect.objectContaining({ delivery_status: 'failed', failure_code: failureKinds.senderNotVerified.code }),
    ]);
  });

  test('drops a message that is not a queued send, sending nothing', async () => {
    const event = delivery({ requestId: 'x', token: 'y' });
    event.Records[0]!.body = 'not json';

    expect((await queuedSend(event)).batchItemFailures).toEqual([]);
  });
});
