/**
 * What one reader costs in calls to AWS, counted on the real path: the save and send handlers (and
 * the queued sender) against the emulators, with a middleware on the functions' own SDK clients
 * (lambdas/runtime/aws-clients.ts) recording every call they make. docs/performance.md's table of a
 * reader's calls is held to what is recorded here, call for call: a change that adds a call fails
 * until the table says why the call is needed. The proof of work is on, as deployed; every reader
 * comes from a client and a network of its own, as on a launch day.
 */

import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { EventBridgeEvent } from 'aws-lambda';
import { sendPaceItemId } from '../../core/data/tables';
import type { SesEventRecord } from '../../lambdas/ses-events/ses-events';
import { readDoc, section } from '../support/docs';
import { leadFootprint } from '../support/lead-cost';
import { startHandlerStack, type HandlerStack } from './support/handler-stack';
import { postEvent, saveRoute, sendRoute } from './support/http-api-events';
import type { Handler } from './support/documented-handler';

let emulators: HandlerStack;
let save: Handler;
let send: Handler;
let sesEvents: (event: EventBridgeEvent<string, SesEventRecord>) => Promise<unknown>;
let calls: string[] = [];

type Call = (args: { readonly input: object }) => Promise<unknown>;

/** An SDK client's middleware stack, as much of it as recording needs. */
interface RecordableClient {
  readonly middlewareStack: {
    add(
      middleware: (next: Call, context: { readonly commandName?: string }) => Call,
      options: { readonly step: 'initialize'; readonly name: string },
    ): void;
  };
}

/**
 * Records `<Service> <Operation> <table>` for every call a client makes (once per call, not per
 * retry); SES's send pace is named, and a take of it that found no slot due is marked `not due`.
 */
function recordCalls(service: string, client: RecordableClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as {
        TableName?: string;
        RequestItems?: Record<string, unknown>;
        Key?: { id?: unknown };
      };
      const table = input.TableName ?? Object.keys(input.RequestItems ?? {}).join('+');
      const pace = input.Key?.id === sendPaceItemId ? 'send pace' : '';
      const name = [service, context.commandName?.replace(/Command$/, ''), table, pace].filter(Boolean).join(' ');
      let refused = false;
      try {
        return await next(args);
      } catch (error) {
        refused = true;
        throw error;
      } finally {
        calls.push(refused && pace ? `${name} not due` : name);
      }
    },
    { step: 'initialize', name: 'recordReaderCalls' },
  );
}

beforeAll(async () => {
  emulators = await startHandlerStack({ challenge: 'on', sesMaxSendRate: 10 });
  save = (await import('../../lambdas/save-request/handler')).handler as Handler;
  send = (await import('../../lambdas/send-cheat-sheet/handler')).handler as Handler;
  sesEvents = (await import('../../lambdas/ses-events/handler')).handler as typeof sesEvents;
  const clients = await import('../../lambdas/runtime/aws-clients');
  recordCalls('DynamoDB', clients.dynamoDbClient as unknown as RecordableClient);
  recordCalls('S3', clients.s3 as unknown as RecordableClient);
  recordCalls('SES', clients.ses as unknown as RecordableClient);
  recordCalls('SQS', clients.sqs as unknown as RecordableClient);
});
afterAll(() => emulators?.stop());

/** Sets when SES's next send slot is due (send-pace.ts), as if the last send had been that long before. */
async function nextSendSlotIn(ms: number): Promise<void> {
  await emulators.dynamoDb.send(
    new PutCommand({
      TableName: emulators.stack.limitCountersTableName,
      Item: { id: sendPaceItemId, next_at: Date.now() + ms },
    }),
  );
}

let readerNumber = 0;

/** A new reader: its own address, its own client in a network of its own, its own key and solved challenge. */
async function newReader() {
  readerNumber += 1;
  const { proofOfWork, proofOfWorkSecretOf } = await import('../../lambdas/limits/proof-of-work');
  const { readSendCheatSheetConfig } = await import('../../lambdas/runtime/config');
  const config = readSendCheatSheetConfig();
  const secret = await proofOfWorkSecretOf(config.clientAddress, () => Promise.reject(new Error('no secret here')));
  const challenge = await proofOfWork(secret, emulators.dynamoDb, config.limitCountersTableName).issue();
  const solution = await solveChallenge({ challenge, deriveKey });
  const proof = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  const body = { name: `Ada Count ${readerNumber}`, email: `ada.count.${readerNumber}@example.com`, hasBook: true };
  const sourceIp = `10.${readerNumber}.${readerNumber}.1`;
  const key = `reader-calls-${readerNumber}-${Date.now()}`;
  return {
    email: body.email,
    save: () => save(postEvent(saveRoute, body, { sourceIp, headers: { 'idempotency-key': key } })),
    /**
     * The send, SES's next slot due at once; or, `queued`, a minute away until the route has answered
     * (it hands the request to the queue), then due, so the queued sender, asking every 110 ms at the
     * rate of 10 a second, takes it: the same calls however slow the machine.
     */
    send: async ({ queued = false } = {}) => {
      await nextSendSlotIn(queued ? 60_000 : 0);
      const reply = await send(
        postEvent(sendRoute, body, { sourceIp, headers: { 'idempotency-key': key, 'x-cheat-sheet-proof': proof } }),
      );
      if (queued) await nextSendSlotIn(0);
      return reply;
    },
  };
}

/** The calls `step` makes, once it is done (the queue drained). */
async function callsOf(step: () => Promise<{ statusCode?: number } | undefined>): Promise<string[]> {
  calls = [];
  const reply = await step();
  expect(reply?.statusCode).toBeLessThan(300);
  // The queued sender's calls are the send's, once it is done.
  await emulators.stack.sendsDrained();
  // A sender waiting for its slot asks again each interval of the rate: the waits count once.
  const waits = calls.filter((call) => call.endsWith('not due'));
  return [...calls.filter((call) => !call.endsWith('not due')), ...waits.slice(0, 1)].sort();
}

/** The table of a reader's calls in docs/performance.md: one row per call, in order, for each step. */
function documentedCalls(step: string): string[] {
  const rows = section(readDoc('performance.md'), "A reader's calls")
    .split('\n')
    .filter((line) => line.startsWith('| '))
    .slice(2)
    .map((line) => line.split('|').map((cell) => cell.trim().replace(/`/g, '')));
  return rows
    .filter(([, , rowStep]) => rowStep === step)
    .map(([, , , call]) => call!)
    .sort();
}

beforeAll(async () => {
  // Warm containers: what each reads once (the PDF, SES's rate) is not a reader's; the second warms the queued sender.
  for (const queued of [false, true]) {
    const warmUp = await newReader();
    await warmUp.save();
    await warmUp.send({ queued });
  }
  await emulators.stack.sendsDrained();
});

test("a reader's save makes the calls docs/performance.md lists, no more", async () => {
  const reader = await newReader();

  expect(await callsOf(() => reader.save())).toEqual(documentedCalls('save'));
});

test("a reader's send makes the calls docs/performance.md lists, no more", async () => {
  const reader = await newReader();
  await reader.save();

  expect(await callsOf(() => reader.send())).toEqual(documentedCalls('send'));
});

test("a send SES's rate has no slot for makes the route's calls, then the queued sender's", async () => {
  const reader = await newReader();
  await reader.save();

  expect(await callsOf(() => reader.send({ queued: true }))).toEqual(documentedCalls('queued send'));
});

test("SES's delivery event of a reader's e-mail makes the calls docs/performance.md lists", async () => {
  const reader = await newReader();
  await reader.save();
  await reader.send();
  const [item] = await emulators.items(reader.email);
  const delivered: EventBridgeEvent<string, SesEventRecord> = {
    version: '0',
    id: `event-${readerNumber}`,
    'detail-type': 'Email Delivered',
    source: 'aws.ses',
    account: '123456789012',
    time: new Date().toISOString(),
    region: 'us-east-1',
    resources: [],
    detail: {
      eventType: 'Delivery',
      mail: {
        timestamp: new Date().toISOString(),
        messageId: item!.ses_message_id,
        destination: [reader.email],
        tags: { request_id: [item!.id] },
      },
    },
  };

  expect(await callsOf(async () => (await sesEvents(delivered), { statusCode: 200 }))).toEqual(
    documentedCalls('delivery event'),
  );
});

test('the cost per lead counts as many DynamoDB calls as a queued reader makes, and its delivery event', () => {
  const dynamoDb = (step: string) => documentedCalls(step).filter((call) => call.startsWith('DynamoDB')).length;

  expect(leadFootprint.dynamoDbCalls).toBe(dynamoDb('save') + dynamoDb('queued send') + dynamoDb('delivery event'));
});
