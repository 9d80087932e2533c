/**
 * The hand-off function's handler as Lambda invokes it, through the real SDK: the requests in
 * DynamoDB (dynalite), SQS and the provider's key in Secrets Manager from a stand-in on loopback
 * (test/lambdas/support/stand-in-sqs.ts), the author's tool a stand-in signed-webhook receiver that
 * counts what it received. Each event source once: the table's stream, then the queue.
 */

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { HandoffItem } from '../../../lambdas/lead-handoff/handoff-records';
import { startStandInMailProvider, type StandInMailProvider } from '../../support/stand-in-mail-provider';
import { withFreshHandler } from '../support/fresh-handler';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { startStandInSqs, type StandInSqs } from '../support/stand-in-sqs';

type Handler = (event: SQSEvent | DynamoDBStreamEvent) => Promise<SQSBatchResponse | void>;

const handlerModule = '../../../lambdas/lead-handoff/handler';
const secretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:mail-provider';
const emptySecretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:mail-provider-unset';
const signingKey = `whsec_${Buffer.from('a signing secret of 32 bytes!!!!').toString('base64')}`;

let handlerStack: HandlerStack;
let sqs: StandInSqs;
let webhook: StandInMailProvider;
let handler: Handler;
// On the stand-in's host: the SQS client sends each call to its queue URL's host (useQueueUrlAsEndpoint).
let queueUrl: string;
let deadLetterQueueUrl: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  handlerStack = await startHandlerStack();
  sqs = await startStandInSqs({ [secretArn]: signingKey });
  webhook = await startStandInMailProvider({ provider: 'webhook', key: signingKey });
  queueUrl = `${sqs.url}/123456789012/lead-handoff`;
  deadLetterQueueUrl = `${sqs.url}/123456789012/lead-handoff-dead-letters`;
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SQS: sqs.url,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: sqs.url,
    TABLE_NAME: handlerStack.stack.tableName,
    MAIL_PROVIDER: 'webhook',
    WEBHOOK_URL: webhook.url,
    MAIL_PROVIDER_SECRET_ARN: secretArn,
    LEAD_HANDOFF_QUEUE_URL: queueUrl,
    LEAD_HANDOFF_DEAD_LETTER_QUEUE_URL: deadLetterQueueUrl,
  });
  ({ handler } = (await import(handlerModule)) as { handler: Handler });
});
beforeEach(() => {
  sqs.calls.length = 0;
  webhook.down = undefined;
});
afterAll(async () => {
  process.env = savedEnv;
  await Promise.all([webhook?.close(), sqs?.close(), handlerStack?.stop()]);
});

let leadNumber = 0;
async function saveConsentingLead(): Promise<string> {
  leadNumber += 1;
  const id = `handler-handoff-${leadNumber}`;
  const at = '2026-03-09T10:00:00.000Z';
  await handlerStack.dynamoDb.send(
    new PutCommand({
      TableName: handlerStack.stack.tableName,
      Item: {
        id,
        name: `Reader ${leadNumber}`,
        email: `reader.${leadNumber}@example.com`,
        requested_at: at,
        cheat_sheet_sent: false,
        delivery_status: 'requested',
        consent: {
          at,
          statement: 'I confirm that I have purchased the book',
          mail_provider: "the author's own mailing-list service",
          mailing_list: { joined: true, statement: "Also add me to the author's mailing list" },
        },
      },
    }),
  );
  return id;
}

const queueEvent = (requestId: string, receiveCount = 1): SQSEvent =>
  ({
    Records: [
      {
        eventSource: 'aws:sqs',
        messageId: `message-${requestId}`,
        receiptHandle: `receipt-${requestId}`,
        body: JSON.stringify({ requestId }),
        attributes: { ApproximateReceiveCount: String(receiveCount) },
      },
    ],
  }) as unknown as SQSEvent;

const handoffOf = async (id: string) =>
  ((await handlerStack.items()).find((item) => item.id === id) as HandoffItem | undefined)?.mail_provider_handoff;

test("a stream batch of new requests puts each one's id on the hand-off queue", async () => {
  const insert = (id: string) => ({
    eventSource: 'aws:dynamodb',
    eventName: 'INSERT',
    dynamodb: { Keys: { id: { S: id } } },
  });
  const event = { Records: [insert('request-a'), insert('request-b')] } as unknown as DynamoDBStreamEvent;

  await handler(event);

  const [batch] = sqs.callsOf('SendMessageBatch');
  expect(batch?.QueueUrl).toBe(queueUrl);
  const bodies = ((batch?.Entries ?? []) as { MessageBody: string }[]).map(
    (entry) => JSON.parse(entry.MessageBody) as unknown,
  );
  expect(bodies).toEqual([{ requestId: 'request-a' }, { requestId: 'request-b' }]);
});

test("a queued lead reaches the author's tool once, signed with the key from the secret, and is recorded accepted", async () => {
  const id = await saveConsentingLead();

  const reply = await handler(queueEvent(id));

  expect(reply).toEqual({ batchItemFailures: [] });
  const delivered = [...webhook.webhookDeliveries.values()].flat() as { data?: { email?: string } }[];
  expect(
    delivered.filter((delivery) => JSON.stringify(delivery).includes(`reader.${leadNumber}@example.com`)),
  ).toHaveLength(1);
  expect(webhook.rejectedSignatures).toBe(0);
  // MAIL_PROVIDER_DOUBLE_OPT_IN unset: the receiver is told to ask the reader to confirm.
  expect(webhook.subscribers.get(`reader.${leadNumber}@example.com`)?.confirmationAsked).toBe(true);
  expect(await handoffOf(id)).toMatchObject({ provider: 'webhook', result: 'accepted', attempts: 1 });
});

test('a tool that is down leaves the message on the queue, hidden until its next attempt', async () => {
  const id = await saveConsentingLead();
  webhook.down = () => true;

  const reply = await handler(queueEvent(id));

  expect(reply).toEqual({ batchItemFailures: [{ itemIdentifier: `message-${id}` }] });
  const [visibility] = sqs.callsOf('ChangeMessageVisibility');
  expect(visibility).toMatchObject({ QueueUrl: queueUrl, ReceiptHandle: `receipt-${id}` });
  expect(visibility?.VisibilityTimeout).toBeGreaterThan(0);
  expect(await handoffOf(id)).toMatchObject({ result: 'retrying' });
});

test('a secret with no key yet stops the hand-off: the message goes to the dead-letter queue', async () => {
  const id = await saveConsentingLead();

  const reply = await withFreshHandler<SQSBatchResponse | void, Handler>(
    handlerModule,
    { MAIL_PROVIDER_SECRET_ARN: emptySecretArn },
    (fresh) => fresh(queueEvent(id)),
  );

  expect(reply).toEqual({ batchItemFailures: [] });
  expect(sqs.callsOf('SendMessage')).toEqual([
    expect.objectContaining({
      QueueUrl: deadLetterQueueUrl,
      MessageAttributes: { reason: { DataType: 'String', StringValue: 'authentication' } },
    }),
  ]);
  expect(await handoffOf(id)).toMatchObject({ result: 'stopped', reason: 'authentication' });
});

test('a missing setting fails the invocation, naming the variable', async () => {
  await expect(
    withFreshHandler<SQSBatchResponse | void, Handler>(handlerModule, { LEAD_HANDOFF_QUEUE_URL: undefined }, (fresh) =>
      fresh(queueEvent('request-x')),
    ),
  ).rejects.toThrow('LEAD_HANDOFF_QUEUE_URL missing');
});
