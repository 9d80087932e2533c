/** One function of the catalogue in a bare stack, with only the resources its entry names. */

import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { catalogueFunctions, productFunctions } from '../../../core/api/catalogue/functions';
import { withDefaults } from '../../../core/api/catalogue/function-entry';
import type { CatalogueFunction as CatalogueEntry } from '../../../core/api/catalogue/function-entry';
import { productRoutes } from '../../../core/api/catalogue/routes';
import { CatalogueFunction } from '../../../infra/constructs/catalogue-function';
import { testApp } from '../support/synth';

function synth(fn: CatalogueEntry, overrides: Partial<CatalogueEntry> = {}) {
  const app = testApp({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Bare', { env: { account: '111111111111', region: 'eu-west-1' } });
  const encryptionKey = new Key(stack, 'Key');
  const partitionKey = { name: 'id', type: AttributeType.STRING };
  const requests = new Table(stack, 'Requests', { partitionKey });
  const limitCounters = new Table(stack, 'LimitCounters', { partitionKey });
  const idempotency = new Table(stack, 'Idempotency', { partitionKey });
  const bucket = new Bucket(stack, 'Pdf', { encryption: BucketEncryption.KMS, encryptionKey });
  const originSecret = new Secret(stack, 'OriginSecret');
  const sendQueue = new Queue(stack, 'SendQueue');
  new CatalogueFunction(stack, fn.id, {
    fn: { ...fn, ...overrides },
    environment: { TABLE_NAME: 'requests' },
    encryptionKey,
    resources: {
      tables: { requests, limitCounters, idempotency },
      emailIndexName: 'by-email',
      cheatSheetBucket: bucket,
      cheatSheetKey: 'sheet.pdf',
      senderIdentityArn: 'arn:aws:ses:eu-west-1:111111111111:identity/example.com',
      configurationSetArn: 'arn:aws:ses:eu-west-1:111111111111:configuration-set/cs',
      originSecret,
      sendQueue,
    },
  });
  const logicalId = (construct: Table | Key) => stack.getLogicalId(construct.node.defaultChild as never);
  return { template: Template.fromStack(stack), ids: { requests: logicalId(requests), key: logicalId(encryptionKey) } };
}

type Statement = { Action: string | string[]; Resource: unknown };

/** Every action the role's policy allows, each once. */
function grantedActions(template: Template): string[] {
  const [policy] = Object.values(template.findResources('AWS::IAM::Policy'));
  return [
    ...new Set(
      (policy!.Properties.PolicyDocument.Statement as Statement[]).flatMap((statement) => [statement.Action].flat()),
    ),
  ].sort();
}

/** The actions the role's policy allows on the requests table itself. */
function actionsOnRequests(template: Template, requestsId: string): string[] {
  const [policy] = Object.values(template.findResources('AWS::IAM::Policy'));
  return (policy!.Properties.PolicyDocument.Statement as Statement[])
    .filter((statement) => JSON.stringify(statement.Resource) === JSON.stringify({ 'Fn::GetAtt': [requestsId, 'Arn'] }))
    .flatMap((statement) => [statement.Action].flat())
    .sort();
}

test("sizes the function from its catalogue entry: memory, timeout, arm64, tracing, the route's description", () => {
  const { template } = synth(productRoutes.saveRequest);

  template.hasResourceProperties('AWS::Lambda::Function', {
    MemorySize: 256,
    Timeout: 10,
    Architectures: ['arm64'],
    TracingConfig: { Mode: 'Active' },
    Description: productRoutes.saveRequest.description,
    Environment: { Variables: { TABLE_NAME: 'requests' } },
  });
});

test('grants the save route PutItem on the requests table, its limit counters, its idempotency keys and the origin secret, besides its logs and tracing', () => {
  const { template, ids } = synth(productRoutes.saveRequest);

  expect(grantedActions(template)).toEqual([
    'dynamodb:BatchGetItem',
    'dynamodb:DeleteItem',
    'dynamodb:GetItem',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'logs:CreateLogStream',
    'logs:PutLogEvents',
    'secretsmanager:GetSecretValue',
    'xray:PutTelemetryRecords',
    'xray:PutTraceSegments',
  ]);
  template.hasResourceProperties('AWS::IAM::Policy', {
    PolicyDocument: {
      Statement: Match.arrayWith([
        {
          Effect: 'Allow',
          Action: ['dynamodb:GetItem', 'dynamodb:PutItem'],
          Resource: { 'Fn::GetAtt': [ids.requests, 'Arn'] },
        },
      ]),
    },
  });
});

test("grants the send route its tables' actions, the e-mail index, the PDF through S3 only, SES and the secret", () => {
  const { template, ids } = synth(productRoutes.sendCheatSheet);

  expect(grantedActions(template)).toEqual(
    expect.arrayContaining([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'kms:Decrypt',
      's3:GetObject',
      'secretsmanager:GetSecretValue',
      'ses:SendEmail',
      'sqs:SendMessage',
    ]),
  );
  // PutItem only on its Idempotency-Key records: the requests table it reads by the key's id and updates.
  expect(actionsOnRequests(template, ids.requests).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
  template.hasResourceProperties('AWS::IAM::Policy', {
    PolicyDocument: {
      Statement: Match.arrayWith([
        {
          Effect: 'Allow',
          Action: 'dynamodb:Query',
          Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [ids.requests, 'Arn'] }, '/index/by-email']] },
        },
        {
          Effect: 'Allow',
          Action: 'kms:Decrypt',
          Resource: { 'Fn::GetAtt': [ids.key, 'Arn'] },
          Condition: { StringEquals: { 'kms:ViaService': 's3.eu-west-1.amazonaws.com' } },
        },
      ]),
    },
  });
});

test('a table access in the catalogue becomes a grant: another access, another grant', () => {
  const { template } = synth(productRoutes.saveRequest, {
    tableAccess: [{ table: 'limitCounters', actions: ['dynamodb:GetItem'], why: 'A test.' }],
  });

  expect(grantedActions(template)).toContain('dynamodb:GetItem');
  expect(grantedActions(template)).not.toContain('dynamodb:PutItem');
});

test("leading keys narrow a single-item grant to those items' partition keys, and are refused on a Scan or a Query", () => {
  const { template } = synth(productRoutes.saveRequest, {
    tableAccess: [{ table: 'limitCounters', actions: ['dynamodb:GetItem'], why: 'A test.', leadingKeys: ['day#*'] }],
  });
  const [policy] = Object.values(template.findResources('AWS::IAM::Policy'));
  const getItem = (policy!.Properties.PolicyDocument.Statement as (Statement & { Condition?: unknown })[]).find(
    (statement) => [statement.Action].flat().includes('dynamodb:GetItem'),
  );
  expect(getItem?.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['day#*'] } });
  expect(() =>
    synth(productRoutes.saveRequest, {
      tableAccess: [
        {
          table: 'limitCounters',
          actions: ['dynamodb:GetItem', 'dynamodb:Query'],
          why: 'A test.',
          leadingKeys: ['a*'],
        },
      ],
    }),
  ).toThrow('leadingKeys narrows single-item actions only, not dynamodb:Query');
});

test('refuses a timeout that does not outlast a failing SDK call', () => {
  expect(() => synth(productRoutes.saveRequest, { timeoutSeconds: 7 })).toThrow(/does not outlast a failing SDK call/);
});

test('writes its logs to its own log group, encrypted with the key', () => {
  const { template, ids } = synth(productRoutes.saveRequest);

  template.resourceCountIs('AWS::Logs::LogGroup', 1);
  template.hasResourceProperties('AWS::Logs::LogGroup', { KmsKeyId: { 'Fn::GetAtt': [ids.key, 'Arn'] } });
});

test('sizes a function that makes no SDK call with the defaults: 256 MB and 3 s', () => {
  const plain = withDefaults('plain', {
    id: 'Plain',
    trigger: productFunctions.unsentCheck.trigger,
    entry: productFunctions.unsentCheck.entry,
    description: 'A function that calls no AWS service.',
    logService: 'plain',
  });
  const { template } = synth(plain);

  template.hasResourceProperties('AWS::Lambda::Function', { MemorySize: 256, Timeout: 3 });
});

test('grants the pause function PutConfigurationSetSendingOptions on the configuration set alone', () => {
  const { template } = synth(catalogueFunctions.pauseSending);

  template.hasResourceProperties('AWS::IAM::Policy', {
    PolicyDocument: {
      Statement: Match.arrayWith([
        {
          Effect: 'Allow',
          Action: 'ses:PutConfigurationSetSendingOptions',
          Resource: 'arn:aws:ses:eu-west-1:111111111111:configuration-set/cs',
        },
      ]),
    },
  });
  template.hasResourceProperties('AWS::Lambda::Function', { MemorySize: 128, Timeout: 10 });
});
