/**
 * The send queue of the local twin: SQS's SendMessage on loopback (its AWS JSON protocol, so the
 * send route's real SQS client and code hand off to it, through `AWS_ENDPOINT_URL_SQS`), and
 * Lambda's event source mapping in front of the real queued sender's handler: batches of up to 10,
 * at most two at once (the deployed mapping's maximum concurrency), and a message the handler
 * reports as a batch item failure back after the visibility timeout. Only the transport is
 * local: what sends, and at what pace, is the deployed code.
 */

import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { closeServer, emulatorHost, listen, type RunningServer } from './emulators';

export type QueuedSendHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

export interface LocalSendQueue extends RunningServer {
  /** What the send route's SEND_QUEUE_URL names. */
  readonly queueUrl: string;
  /** Starts delivering to the handler (imported once the environment is set). */
  start(handler: QueuedSendHandler): void;
  /** Resolves once no message waits and no batch runs: every accepted send has been tried. */
  drained(): Promise<void>;
}

/** As the deployed mapping (infra/constructs/send-queue.ts). */
const batchSize = 10;
const maxConcurrency = 2;
/**
 * A failed message's wait before it comes back: the deployed queue's is 360 s (six times the
 * sender's timeout); a local run waits 2 s, so a test or a load run sees the retry.
 */
const localVisibilityTimeoutMs = 2000;
/** As the deployed queue's redrive policy: a message failed this often is set aside (logged), not retried. */
const maxReceiveCount = 10;

interface Message {
  readonly id: string;
  readonly body: string;
  receiveCount: number;
  visibleAt: number;
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

export async function startLocalSendQueue(port = 0): Promise<LocalSendQueue> {
  const waiting: Message[] = [];
  let running = 0;
  let handler: QueuedSendHandler | undefined;
  let timer: NodeJS.Timeout | undefined;
  let idleWaiters: Array<() => void> = [];

  const isIdle = () => waiting.length === 0 && running === 0;
  const settleIdle = () => {
    if (!isIdle()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const toRecord = (message: Message): SQSRecord => ({
    messageId: message.id,
    receiptHandle: message.id,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(Date.now()),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: md5(message.body),
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:send-queue',
    awsRegion: 'us-east-1',
  });

  const pump = () => {
    if (!handler) return;
    const invoke = handler;
    const now = Date.now();
    while (running < maxConcurrency) {
      const batch: Message[] = [];
      for (let index = 0; index < waiting.length && batch.length < batchSize;) {
        if (waiting[index].visibleAt <= now) batch.push(...waiting.splice(index, 1));
        else index += 1;
      }
      if (batch.length === 0) break;
      running += 1;
      for (const message of batch) message.receiveCount += 1;
      void invoke({ Records: batch.map(toRecord) })
        .then((result) => result.batchItemFailures.map((failure) => failure.itemIdentifier))
        // A crashed invocation: the whole batch comes back, as from Lambda.
        .catch(() => batch.map((message) => message.id))
        .then((failed) => {
          const back = Date.now() + localVisibilityTimeoutMs;
          for (const message of batch.filter(({ id }) => failed.includes(id))) {
            if (message.receiveCount >= maxReceiveCount) {
              console.error(`Send queue: message ${message.id} failed ${maxReceiveCount} times: dead-lettered`);
              continue;
            }
            message.visibleAt = back;
            waiting.push(message);
          }
          running -= 1;
          schedule();
          settleIdle();
        });
    }
    schedule();
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (waiting.length === 0) return;
    const next = Math.min(...waiting.map((message) => message.visibleAt));
    timer = setTimeout(pump, Math.max(0, next - Date.now()));
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const action = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      response.setHeader('content-type', 'application/x-amz-json-1.0');
      if (action !== 'SendMessage') {
        response.writeHead(400);
        response.end(JSON.stringify({ __type: 'InvalidAction', message: `The local queue answers SendMessage only.` }));
        return;
      }
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { MessageBody?: string };
      const body = input.MessageBody ?? '';
      const id = randomUUID();
      waiting.push({ id, body, receiveCount: 0, visibleAt: Date.now() });
      response.writeHead(200);
      response.end(JSON.stringify({ MessageId: id, MD5OfMessageBody: md5(body) }));
      pump();
    });
  });
  const actualPort = await listen(server, port, emulatorHost);
  const url = `http://${emulatorHost}:${actualPort}`;
  return {
    port: actualPort,
    url,
    queueUrl: `${url}/000000000000/send-queue`,
    start(next) {
      handler = next;
      pump();
    },
    drained: () => (isIdle() ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    async close() {
      if (timer) clearTimeout(timer);
      handler = undefined;
      waiting.length = 0;
      await closeServer(server);
      settleIdle();
    },
  };
}
