/**
 * How a recorded call is read into what IAM authorizes: the action, the resource's ARN, and the KMS
 * calls the service makes in the caller's name for data under a customer key. On a small
 * hand-written cloud assembly (no synth).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CallReader, type CallReading } from '../../../../infra/tools/rehearsal/aws-calls';
import { readDeployedStacks, type DeployedStack } from '../../../../infra/tools/rehearsal/deployed-stacks';

const keyArn = { 'Fn::GetAtt': ['Key', 'Arn'] };
const template = {
  Resources: {
    Key: { Type: 'AWS::KMS::Key', Properties: { KeyPolicy: { Statement: [] } } },
    Requests: {
      Type: 'AWS::DynamoDB::Table',
      Properties: { TableName: 'requests', SSESpecification: { SSEEnabled: true, KMSMasterKeyId: keyArn } },
    },
    Plain: {
      Type: 'AWS::DynamoDB::Table',
      Properties: { TableName: 'plain', KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] },
    },
    Files: {
      Type: 'AWS::S3::Bucket',
      Properties: {
        BucketName: 'files',
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [
            { ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: keyArn } },
          ],
        },
      },
    },
    Sender: { Type: 'AWS::SES::EmailIdentity', Properties: { EmailIdentity: 'example.com' } },
    Send: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'send' } },
    SendRole: { Type: 'AWS::IAM::Role', Properties: { RoleName: 'send-role' } },
  },
};

let directory: string;
let stacks: DeployedStack[];
beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'aws-calls-'));
  writeFileSync(path.join(directory, 'Site.template.json'), JSON.stringify(template));
  writeFileSync(
    path.join(directory, 'manifest.json'),
    JSON.stringify({
      artifacts: {
        Site: {
          type: 'aws:cloudformation:stack',
          environment: 'aws://111111111111/eu-west-1',
          properties: { templateFile: 'Site.template.json' },
        },
      },
    }),
  );
  stacks = readDeployedStacks(directory, { region: 'eu-west-1' });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const read = (call: { service: string; method?: string; url?: string; target?: string; body?: unknown }): string[] => {
  const reading: CallReading = new CallReader(stacks, '111111111111').read({
    region: 'eu-west-1',
    method: 'POST',
    url: '/',
    ...call,
    body: typeof call.body === 'string' ? call.body : JSON.stringify(call.body ?? {}),
  });
  if ('unreadable' in reading) return [`unreadable ${reading.unreadable}`];
  return reading.requests.map(
    (request) =>
      `${request.action} ${request.resource}${request.context?.['kms:ViaService'] ? ` via ${String(request.context['kms:ViaService'])}` : ''}`,
  );
};

test('a DynamoDB write on a table under a customer key also decrypts its table key through DynamoDB', () => {
  expect(
    read({ service: 'dynamodb', target: 'DynamoDB_20120810.UpdateItem', body: { TableName: 'requests' } }),
  ).toEqual([
    'dynamodb:UpdateItem arn:aws:dynamodb:eu-west-1:111111111111:table/requests',
    'kms:Decrypt arn:aws:kms:eu-west-1:111111111111:key/Key via dynamodb.eu-west-1.amazonaws.com',
  ]);
});

test('a Query of an index names the index; a table without a customer key implies no KMS call', () => {
  expect(
    read({
      service: 'dynamodb',
      target: 'DynamoDB_20120810.Query',
      body: { TableName: 'plain', IndexName: 'by-email' },
    }),
  ).toEqual(['dynamodb:Query arn:aws:dynamodb:eu-west-1:111111111111:table/plain/index/by-email']);
});

test("a single-item call carries its partition key, IAM's dynamodb:LeadingKeys, from the table's key schema; a Query none", () => {
  const leadingKeysOf = (target: string, body: unknown) => {
    const reading = new CallReader(stacks, '111111111111').read({
      service: 'dynamodb',
      region: 'eu-west-1',
      method: 'POST',
      url: '/',
      target: `DynamoDB_20120810.${target}`,
      body: JSON.stringify(body),
    });
    return 'requests' in reading ? reading.requests[0].leadingKeys : 'unreadable';
  };
  expect(leadingKeysOf('GetItem', { TableName: 'plain', Key: { id: { S: 'funnel#2026-03-08' } } })).toEqual([
    'funnel#2026-03-08',
  ]);
  expect(leadingKeysOf('PutItem', { TableName: 'plain', Item: { id: { S: 'a' }, n: { N: '1' } } })).toEqual(['a']);
  expect(leadingKeysOf('Query', { TableName: 'plain', KeyConditionExpression: 'id = :id' })).toBeUndefined();
});

test('a transaction is one request per item, each with its own action', () => {
  expect(
    read({
      service: 'dynamodb',
      target: 'DynamoDB_20120810.TransactWriteItems',
      body: { TransactItems: [{ Put: { TableName: 'plain' } }, { ConditionCheck: { TableName: 'plain' } }] },
    }),
  ).toEqual([
    'dynamodb:PutItem arn:aws:dynamodb:eu-west-1:111111111111:table/plain',
    'dynamodb:ConditionCheckItem arn:aws:dynamodb:eu-west-1:111111111111:table/plain',
  ]);
});

test('an S3 write under a customer key generates a data key through S3; a listing is on the bucket', () => {
  expect(read({ service: 's3', method: 'PUT', url: '/files/a/b.pdf' })).toEqual([
    's3:PutObject arn:aws:s3:::files/a/b.pdf',
    'kms:GenerateDataKey arn:aws:kms:eu-west-1:111111111111:key/Key via s3.eu-west-1.amazonaws.com',
    'kms:Decrypt arn:aws:kms:eu-west-1:111111111111:key/Key via s3.eu-west-1.amazonaws.com',
  ]);
  expect(read({ service: 's3', method: 'GET', url: '/files?list-type=2' })).toEqual([
    's3:ListBucket arn:aws:s3:::files',
  ]);
});

test("a raw SES message is authorized on the From address's verified domain and on its configuration set", () => {
  const raw = Buffer.from('From: "Sheet" <sheet@example.com>\r\nTo: a@b.test\r\n\r\nhi').toString('base64');
  expect(
    read({
      service: 'ses',
      url: '/v2/email/outbound-emails',
      body: { ConfigurationSetName: 'mail', Content: { Raw: { Data: raw } } },
    }),
  ).toEqual([
    'ses:SendEmail arn:aws:ses:eu-west-1:111111111111:identity/example.com',
    'ses:SendEmail arn:aws:ses:eu-west-1:111111111111:configuration-set/mail',
  ]);
});

test('a mail carries the condition keys SES sends: its recipients and its From address', () => {
  const reading = new CallReader(stacks, '111111111111').read({
    service: 'ses',
    region: 'eu-west-1',
    method: 'POST',
    url: '/v2/email/outbound-emails',
    body: JSON.stringify({
      FromEmailAddress: 'sheet@example.com',
      Destination: { ToAddresses: ['a@b.test'], BccAddresses: ['c@d.test'] },
    }),
  });
  expect('requests' in reading && reading.requests.map((request) => request.context)).toEqual([
    { 'ses:Recipients': ['a@b.test', 'c@d.test'], 'ses:FromAddress': 'sheet@example.com' },
  ]);
});

test("the ops commands' --stack reads: a stack's outputs and resources on the stack's ARN, a function's configuration, a role assumed, SES's account state", () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  expect([
    ...read({ service: 'cloudformation', body: form({ Action: 'DescribeStacks', StackName: 'Site' }) }),
    ...read({ service: 'cloudformation', body: form({ Action: 'ListStackResources', StackName: 'Other' }) }),
    ...read({ service: 'lambda', method: 'GET', url: '/2015-03-31/functions/send/configuration' }),
    ...read({
      service: 'sts',
      body: form({ Action: 'AssumeRole', RoleArn: 'arn:aws:iam::111111111111:role/send-role' }),
    }),
    ...read({ service: 'ses', method: 'GET', url: '/v2/email/configuration-sets/mail' }),
    ...read({ service: 'ses', method: 'GET', url: '/v2/email/identities/example.com' }),
  ]).toEqual([
    'cloudformation:DescribeStacks arn:aws:cloudformation:eu-west-1:111111111111:stack/Site/id',
    'cloudformation:ListStackResources arn:aws:cloudformation:eu-west-1:111111111111:stack/Other/*',
    'lambda:GetFunctionConfiguration arn:aws:lambda:eu-west-1:111111111111:function:send',
    'sts:AssumeRole arn:aws:iam::111111111111:role/send-role',
    'ses:GetConfigurationSet arn:aws:ses:eu-west-1:111111111111:configuration-set/mail',
    'ses:GetEmailIdentity arn:aws:ses:eu-west-1:111111111111:identity/example.com',
  ]);
});

test('an SQS batch call is authorized as its single action: IAM has no sqs:SendMessageBatch', () => {
  const queueUrl = 'https://sqs.eu-west-1.amazonaws.com/111111111111/handoff';
  expect([
    ...read({ service: 'sqs', target: 'AmazonSQS.SendMessageBatch', body: { QueueUrl: queueUrl, Entries: [] } }),
    ...read({ service: 'sqs', target: 'AmazonSQS.DeleteMessageBatch', body: { QueueUrl: queueUrl, Entries: [] } }),
    ...read({ service: 'sqs', target: 'AmazonSQS.SendMessage', body: { QueueUrl: queueUrl } }),
  ]).toEqual([
    'sqs:SendMessage arn:aws:sqs:eu-west-1:111111111111:handoff',
    'sqs:DeleteMessage arn:aws:sqs:eu-west-1:111111111111:handoff',
    'sqs:SendMessage arn:aws:sqs:eu-west-1:111111111111:handoff',
  ]);
});

test('a call no rule reads is unreadable, never silently allowed', () => {
  expect(read({ service: 'kinesis', target: 'Kinesis_20131202.PutRecord' })).toEqual([
    expect.stringMatching(/^unreadable kinesis POST \//),
  ]);
});
