/**
 * `npm run leads -- dead-letters list|redrive --stack NAME`: the stack's dead-letter queues found in
 * its resources, their messages described without their payload, and their work redone (the event
 * functions invoked again with the recorded event, the hand-off's messages sent back to its queue)
 * before each is deleted. No SQS emulator runs here: the queues are held in memory behind
 * aws-sdk-client-mock, answering Receive, Delete and Send as SQS does for these calls.
 */
import { Readable } from 'node:stream';
import { CloudFormationClient, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { runLeadsCommand } from '../../../ops/leads/leads-command';
import type { LeadsClients } from '../../../ops/leads/leads-io';

const queueUrl = (name: string) => `https://sqs.eu-west-1.amazonaws.com/111111111111/${name}`;
const failedEventsUrl = queueUrl('First100DaysSite-FailedEventsQueue');
const handoffUrl = queueUrl('First100DaysSite-LeadHandoffQueue');
const handoffDeadLettersUrl = queueUrl('First100DaysSite-LeadHandoffDeadLetterQueue');
const unsentCheckArn = 'arn:aws:lambda:eu-west-1:111111111111:function:First100DaysSite-UnsentCheck';

/** A failed asynchronous invocation, as Lambda's on-failure destination records it. */
const failedInvocation = (requestPayload: unknown) =>
  JSON.stringify({
    version: '1.0',
    requestContext: {
      functionArn: `${unsentCheckArn}:$LATEST`,
      condition: 'RetriesExhausted',
      approximateInvokeCount: 3,
    },
    requestPayload,
    responsePayload: { errorType: 'AccessDeniedException', errorMessage: 'reader@example.com could not be read' },
  });

function fakeAws(queues: Record<string, Message[]>) {
  const cloudFormation = new CloudFormationClient({ region: 'eu-west-1' });
  mockClient(cloudFormation)
    .on(ListStackResourcesCommand)
    .resolves({
      StackResourceSummaries: [
        ['FailedEventsQueue1A2B3C4D', failedEventsUrl],
        ['LeadHandoffQueue5E6F7A8B', handoffUrl],
        ['LeadHandoffDeadLetterQueue9C0D1E2F', handoffDeadLettersUrl],
      ].map(([LogicalResourceId, PhysicalResourceId]) => ({
        LogicalResourceId,
        PhysicalResourceId,
        ResourceType: 'AWS::SQS::Queue',
        ResourceStatus: 'CREATE_COMPLETE',
        LastUpdatedTimestamp: new Date(),
      })),
    });
  const hidden = new Set<string>();
  const sqs = new SQSClient({ region: 'eu-west-1' });
  const sqsMock = mockClient(sqs);
  sqsMock.on(GetQueueAttributesCommand).callsFake(({ QueueUrl }: { QueueUrl: string }) => ({
    Attributes: { ApproximateNumberOfMessages: String(queues[QueueUrl]?.length ?? 0) },
  }));
  sqsMock.on(ReceiveMessageCommand).callsFake(({ QueueUrl, VisibilityTimeout }) => {
    const visible = (queues[QueueUrl as string] ?? []).filter(({ ReceiptHandle }) => !hidden.has(ReceiptHandle!));
    if (VisibilityTimeout) for (const { ReceiptHandle } of visible) hidden.add(ReceiptHandle!);
    return { Messages: visible.slice(0, 10) };
  });
  sqsMock.on(DeleteMessageCommand).callsFake(({ QueueUrl, ReceiptHandle }) => {
    queues[QueueUrl as string] = queues[QueueUrl as string].filter((m) => m.ReceiptHandle !== ReceiptHandle);
    return {};
  });
  sqsMock.on(SendMessageCommand).callsFake(({ QueueUrl, MessageBody, MessageAttributes }) => {
    const list = (queues[QueueUrl as string] ??= []);
    list.push({ Body: MessageBody as string, MessageAttributes, ReceiptHandle: `sent-${list.length}` });
    return { MessageId: 'moved' };
  });
  const lambda = new LambdaClient({ region: 'eu-west-1' });
  const lambdaMock = mockClient(lambda);
  lambdaMock.on(InvokeCommand).resolves({ StatusCode: 202 });
  // The tables and SES are not called: the command only closes them.
  const clients = (): LeadsClients => ({
    cloudFormation,
    sqs,
    lambda,
    dynamoDb: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' })),
    ses: new SESv2Client({ region: 'eu-west-1' }),
  });
  return { clients, queues, lambdaMock };
}

async function run(args: string[], clients: () => LeadsClients) {
  let stdout = '';
  let stderr = '';
  const code = await runLeadsCommand(args, {
    stdout: (text) => (stdout += `${text}\n`),
    stderr: (text) => (stderr += `${text}\n`),
    stdin: Readable.from([]),
    env: {},
    clients,
  });
  return { code, stdout, stderr };
}

const sesEvent = { 'detail-type': 'Bounce', detail: { mail: { destination: ['reader@example.com'] } } };
const handoffMessage = (id: string, reason: string): Message => ({
  Body: JSON.stringify({ id }),
  MessageAttributes: { reason: { DataType: 'String', StringValue: reason } },
  ReceiptHandle: `handoff-${id}`,
  Attributes: { SentTimestamp: String(Date.parse('2026-11-28T03:00:00Z')) },
});

describe('leads dead-letters', () => {
  test('list names each queue as its ticket does, and what failed, without the payload (no address)', async () => {
    const { clients, queues } = fakeAws({
      [failedEventsUrl]: [{ Body: failedInvocation(sesEvent), ReceiptHandle: 'failed-1' }],
      [handoffDeadLettersUrl]: [handoffMessage('req-1', 'authentication')],
    });
    const { code, stdout } = await run(['dead-letters', 'list', '--stack', 'First100DaysSite'], clients);
    expect(code).toBe(0);
    expect(stdout).toContain('DeadLetters-FailedEvents: 1 message');
    expect(stdout).toContain('First100DaysSite-UnsentCheck failed: AccessDeniedException');
    expect(stdout).toContain('DeadLetters-LeadHandoff: 1 message');
    expect(stdout).toContain('2026-11-28T03:00:00.000Z  request req-1: authentication');
    expect(stdout).not.toContain('@');
    // A peek: every message is still there.
    expect([queues[failedEventsUrl].length, queues[handoffDeadLettersUrl].length]).toEqual([1, 1]);
  });

  test('redrive invokes the failed function again with its recorded event, sends the hand-off back to its queue, and deletes each', async () => {
    const { clients, queues, lambdaMock } = fakeAws({
      [failedEventsUrl]: [{ Body: failedInvocation(sesEvent), ReceiptHandle: 'failed-1' }],
      [handoffDeadLettersUrl]: [handoffMessage('req-1', 'authentication')],
    });
    const { code, stdout } = await run(['dead-letters', 'redrive', '--yes', '--stack', 'First100DaysSite'], clients);
    expect(code).toBe(0);
    expect(stdout).toContain('Redone and deleted: 2; left: 0.');
    const [invoke] = lambdaMock.commandCalls(InvokeCommand);
    expect(invoke.args[0].input.FunctionName).toBe(unsentCheckArn);
    expect(invoke.args[0].input.InvocationType).toBe('Event');
    expect(JSON.parse(new TextDecoder().decode(invoke.args[0].input.Payload as Uint8Array))).toEqual(sesEvent);
    expect(queues[handoffUrl].map(({ Body }) => Body)).toEqual([JSON.stringify({ id: 'req-1' })]);
    expect([queues[failedEventsUrl], queues[handoffDeadLettersUrl]]).toEqual([[], []]);
  });

  test("redrive leaves a failed stream batch, which holds no request's id, and says so (exit 1)", async () => {
    const batch = JSON.stringify({
      requestContext: {
        functionArn: 'arn:aws:lambda:eu-west-1:111111111111:function:Handoff',
        condition: 'RetryAttemptsExhausted',
      },
      DDBStreamBatchInfo: { shardId: 'shard-1', batchSize: 2 },
    });
    const { clients, queues } = fakeAws({ [handoffDeadLettersUrl]: [{ Body: batch, ReceiptHandle: 'batch-1' }] });
    const { code, stderr } = await run(['dead-letters', 'redrive', '--yes', '--stack', 'First100DaysSite'], clients);
    expect(code).toBe(1);
    expect(stderr).toContain('Left in DeadLetters-LeadHandoff');
    expect(stderr).toContain('a stream batch');
    expect(queues[handoffDeadLettersUrl]).toHaveLength(1);
  });

  test('redrive without --yes asks first, and a closed stdin redoes nothing', async () => {
    const { clients, queues, lambdaMock } = fakeAws({
      [failedEventsUrl]: [{ Body: failedInvocation(sesEvent), ReceiptHandle: 'failed-1' }],
    });
    const { code, stderr } = await run(['dead-letters', 'redrive', '--stack', 'First100DaysSite'], clients);
    expect(code).toBe(1);
    expect(stderr).toContain('Redo the work of 1 dead letter? [y/N]');
    expect(lambdaMock.commandCalls(InvokeCommand)).toHaveLength(0);
    expect(queues[failedEventsUrl]).toHaveLength(1);
  });

  test.each([
    [['dead-letters', 'list']],
    [['dead-letters', 'purge', '--stack', 'S']],
    [['dead-letters', '--stack', 'S']],
  ])('refuses %j with the usage (exit 2): it takes list or redrive, and --stack', async (args) => {
    const { clients } = fakeAws({});
    const { code, stderr } = await run(args, clients);
    expect(code).toBe(2);
    expect(stderr).toContain('dead-letters takes list or redrive, and --stack NAME.');
  });
});
