/**
 * The hand-off queue's adapter (lambdas/lead-handoff/handoff-queue.ts) through the real SQS client,
 * against a stand-in SQS on loopback (no SQS emulator runs here): what each operation asks of SQS.
 */

import { SQSClient } from '@aws-sdk/client-sqs';
import { sqsHandoffQueue } from '../../../lambdas/lead-handoff/handoff-queue';
import { startStandInSqs, type StandInSqs } from '../support/stand-in-sqs';

const queueUrl = 'https://sqs.eu-west-1.amazonaws.com/123456789012/lead-handoff';
const deadLetterQueueUrl = 'https://sqs.eu-west-1.amazonaws.com/123456789012/lead-handoff-dead-letters';
let sqs: StandInSqs;
let client: SQSClient;
const queue = () => sqsHandoffQueue(client, queueUrl, deadLetterQueueUrl);

beforeAll(async () => {
  sqs = await startStandInSqs();
  client = new SQSClient({
    endpoint: sqs.url,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});
beforeEach(() => {
  sqs.calls.length = 0;
  sqs.refuseEntries = undefined;
});
afterAll(async () => {
  client.destroy();
  await sqs.close();
});

test('enqueue puts each request id on the queue, at most ten to a SendMessageBatch', async () => {
  const messages = Array.from({ length: 23 }, (_, index) => ({ requestId: `request-${index}` }));

  await queue().enqueue(messages);

  const batches = sqs.callsOf('SendMessageBatch');
  expect(batches.map((batch) => (batch.Entries as unknown[]).length)).toEqual([10, 10, 3]);
  expect(batches.every((batch) => batch.QueueUrl === queueUrl)).toBe(true);
  const bodies = batches.flatMap((batch) =>
    (batch.Entries as { MessageBody: string }[]).map((entry) => entry.MessageBody),
  );
  expect(bodies.map((body) => JSON.parse(body) as unknown)).toEqual(messages);
});

test("enqueue fails, naming SQS's code, when SQS refuses an entry", async () => {
  sqs.refuseEntries = 'InternalError';

  await expect(queue().enqueue([{ requestId: 'request-1' }])).rejects.toThrow(
    'SQS refused 1 hand-off message(s): InternalError',
  );
});

test('enqueue of no messages asks nothing of SQS', async () => {
  await queue().enqueue([]);

  expect(sqs.calls).toEqual([]);
});

test('retryLater hides the message on the hand-off queue for the given seconds', async () => {
  await queue().retryLater('receipt-1', 300);

  expect(sqs.callsOf('ChangeMessageVisibility')).toEqual([
    { QueueUrl: queueUrl, ReceiptHandle: 'receipt-1', VisibilityTimeout: 300 },
  ]);
});

test('deadLetter sends the message to the dead-letter queue with its reason as an attribute', async () => {
  await queue().deadLetter('{"requestId":"request-1"}', 'authentication');

  expect(sqs.callsOf('SendMessage')).toEqual([
    {
      QueueUrl: deadLetterQueueUrl,
      MessageBody: '{"requestId":"request-1"}',
      MessageAttributes: { reason: { DataType: 'String', StringValue: 'authentication' } },
    },
  ]);
});
