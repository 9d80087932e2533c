/**
 * `npm run leads -- dead-letters list|redrive --stack NAME [--yes]`: the operator's one command for
 * the stack's dead-letter queues (the DeadLetters-<owner> tickets), found in the stack with
 * ListStackResources (an `AWS::SQS::Queue`'s physical id is its URL), so no output is needed.
 *
 * - `list`: each queue's count and, for up to 10 messages, what failed: the function, its
 *   condition and error (the event functions' queue, FailedEvents), or the request's id and the
 *   reason (the hand-off's). Never a message's payload: an SES event names the reader, and the
 *   Leads workflow's log is read by everyone with access to the repository. A peek
 *   (VisibilityTimeout 0): nothing is consumed.
 * - `redrive`: redoes each message's work, then deletes it. The event functions' failures are
 *   invoked again, asynchronously, with the event Lambda recorded (their work is idempotent: the
 *   catalogue's failure entries say so); the hand-off's are sent back to the hand-off queue, as
 *   SQS's own redrive would. A hand-off stream batch that failed (no request's id in it) is left
 *   and reported: the unsent leads are in the table, and the weekly digest lists them.
 */

import { paginateListStackResources, type CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { InvokeCommand, InvocationType, type LambdaClient } from '@aws-sdk/client-lambda';
import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { confirmed, type LeadsCommandIo } from './leads-io';

export interface DeadLetterClients {
  readonly cloudFormation: CloudFormationClient;
  readonly sqs: SQSClient;
  readonly lambda: LambdaClient;
}

/** A dead-letter queue of the stack, named as its ticket is (`DeadLetters-<owner>`), and where its work goes back. */
export interface DeadLetterQueue {
  readonly owner: string;
  readonly url: string;
  /** The queue a message is sent back to; undefined: the event functions are invoked instead. */
  readonly redriveTo?: string;
}

/** The stack's dead-letter queues: FailedEvents' queue, and the hand-off's with a mail provider. */
export async function deadLetterQueuesOf(client: CloudFormationClient, stackName: string): Promise<DeadLetterQueue[]> {
  const queues = new Map<string, string>();
  for await (const page of paginateListStackResources({ client }, { StackName: stackName })) {
    for (const { ResourceType, LogicalResourceId, PhysicalResourceId } of page.StackResourceSummaries ?? []) {
      if (ResourceType === 'AWS::SQS::Queue' && LogicalResourceId && PhysicalResourceId)
        queues.set(LogicalResourceId, PhysicalResourceId);
    }
  }
  const byPrefix = (prefix: string) => [...queues].find(([id]) => id.startsWith(prefix))?.[1];
  const failedEvents = byPrefix('FailedEventsQueue');
  const handoff = byPrefix('LeadHandoffQueue');
  const handoffDeadLetters = byPrefix('LeadHandoffDeadLetterQueue');
  return [
    ...(failedEvents ? [{ owner: 'FailedEvents', url: failedEvents }] : []),
    ...(handoffDeadLetters ? [{ owner: 'LeadHandoff', url: handoffDeadLetters, redriveTo: handoff }] : []),
  ];
}

/** What a dead-letter message says failed, without its payload. */
export function describeDeadLetter(message: Message): string {
  const at = message.Attributes?.SentTimestamp
    ? new Date(Number(message.Attributes.SentTimestamp)).toISOString()
    : 'unknown time';
  const reason = message.MessageAttributes?.reason?.StringValue;
  const record = parseRecord(message.Body);
  if (record?.requestContext?.functionArn) {
    const fn = record.requestContext.functionArn.split(':').slice(6, 7)[0] ?? record.requestContext.functionArn;
    const error = record.responsePayload?.errorType ?? record.requestContext.condition ?? 'an error';
    const batch = record.DDBStreamBatchInfo ? ' (a stream batch: no request id)' : '';
    return `${at}  ${fn} failed: ${error}${batch}`;
  }
  const id = record?.id ?? record?.requestId ?? message.Body?.slice(0, 40);
  return `${at}  request ${String(id)}${reason ? `: ${reason}` : ''}`;
}

interface DestinationRecord {
  readonly requestContext?: { readonly functionArn?: string; readonly condition?: string };
  readonly responsePayload?: { readonly errorType?: string };
  readonly requestPayload?: unknown;
  readonly DDBStreamBatchInfo?: unknown;
  readonly id?: string;
  readonly requestId?: string;
}

function parseRecord(body: string | undefined): DestinationRecord | undefined {
  try {
    const parsed = JSON.parse(body ?? '') as DestinationRecord | null;
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const receive = (sqs: SQSClient, url: string, visibilityTimeout: number) =>
  sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: visibilityTimeout,
      // A second's long poll: a short poll samples a few servers and may miss a lone message.
      WaitTimeSeconds: 1,
      MessageSystemAttributeNames: ['SentTimestamp'],
      MessageAttributeNames: ['All'],
    }),
  );

async function countOf(sqs: SQSClient, url: string): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages'] }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0);
}

export async function listDeadLetters(clients: DeadLetterClients, stack: string, io: LeadsCommandIo): Promise<number> {
  for (const queue of await deadLetterQueuesOf(clients.cloudFormation, stack)) {
    const count = await countOf(clients.sqs, queue.url);
    io.stdout(`DeadLetters-${queue.owner}: ${count} message${count === 1 ? '' : 's'}`);
    if (count === 0) continue;
    // A peek: visible again at once, so nothing is consumed.
    const { Messages = [] } = await receive(clients.sqs, queue.url, 0);
    for (const message of Messages) io.stdout(`  ${describeDeadLetter(message)}`);
  }
  return 0;
}

/** Redoes every message's work, then deletes it; exit 1 when any is left. */
export async function redriveDeadLetters(
  clients: DeadLetterClients,
  stack: string,
  yes: boolean,
  io: LeadsCommandIo,
): Promise<number> {
  const queues = await deadLetterQueuesOf(clients.cloudFormation, stack);
  const counts = await Promise.all(queues.map((queue) => countOf(clients.sqs, queue.url)));
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) {
    io.stdout('No dead letters: nothing to redo.');
    return 0;
  }
  if (!yes && !(await confirmed(io, `Redo the work of ${total} dead letter${total === 1 ? '' : 's'}? [y/N] `))) {
    io.stderr('Nothing redone.');
    return 1;
  }
  let redone = 0;
  let left = 0;
  for (const queue of queues) {
    // Hidden for 5 minutes while this run redoes them; a message left reappears for the next run.
    for (let batch = await receive(clients.sqs, queue.url, 300); batch.Messages?.length;) {
      for (const message of batch.Messages) {
        if (await redo(clients, queue, message)) {
          await clients.sqs.send(
            new DeleteMessageCommand({ QueueUrl: queue.url, ReceiptHandle: message.ReceiptHandle }),
          );
          redone += 1;
        } else {
          left += 1;
          io.stderr(
            `Left in DeadLetters-${queue.owner}: ${describeDeadLetter(message)} (docs/operate.md, its section).`,
          );
        }
      }
      batch = await receive(clients.sqs, queue.url, 300);
    }
  }
  io.stdout(`Redone and deleted: ${redone}; left: ${left}.`);
  return left === 0 ? 0 : 1;
}

async function redo(clients: DeadLetterClients, queue: DeadLetterQueue, message: Message): Promise<boolean> {
  const record = parseRecord(message.Body);
  if (queue.redriveTo) {
    if (record?.DDBStreamBatchInfo) return false;
    await clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: queue.redriveTo,
        MessageBody: message.Body,
        MessageAttributes: message.MessageAttributes,
      }),
    );
    return true;
  }
  const functionArn = record?.requestContext?.functionArn;
  if (!functionArn || record.requestPayload === undefined) return false;
  // The version qualifier Lambda recorded ($LATEST) is left out: the function as deployed now.
  const functionName = functionArn.split(':').slice(0, 7).join(':');
  await clients.lambda.send(
    new InvokeCommand({
      FunctionName: functionName,
      InvocationType: InvocationType.Event,
      Payload: new TextEncoder().encode(JSON.stringify(record.requestPayload)),
    }),
  );
  return true;
}
