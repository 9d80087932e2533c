/**
 * The mail provider's hand-off in the template: with `mailProvider`, the requests table's stream
 * filtered to consenting inserts, the hand-off queue with its dead-letter queue, an empty secret
 * for the key, the function's grants, and the dead letters' ticket; without it, none of that.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import { catalogueFunctions } from '../../../core/api/catalogue/functions';
import { alarmsOf } from '../support/alarms';
import { resourceByPrefix, synthTemplate } from '../support/synth';

const context = { senderDomain: 'example.com' };

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

function roleActions(template: Template, functionPrefix: string): Map<string, unknown[]> {
  const fn = resourceByPrefix(template, 'AWS::Lambda::Function', functionPrefix).resource;
  const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const statements = Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(role))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
  const actions = new Map<string, unknown[]>();
  for (const statement of statements) {
    for (const action of [statement.Action].flat()) {
      actions.set(action, [...(actions.get(action) ?? []), ...[statement.Resource].flat()]);
    }
  }
  return actions;
}

describe('with mailProvider kit and its form', () => {
  const template = synthTemplate({ context: { ...context, mailProvider: 'kit', mailProviderList: '1234567' } });
  const queue = resourceByPrefix(template, 'AWS::SQS::Queue', 'LeadHandoffQueue');
  const deadLetterQueue = resourceByPrefix(template, 'AWS::SQS::Queue', 'LeadHandoffDeadLetterQueue');
  const secret = resourceByPrefix(template, 'AWS::SecretsManager::Secret', 'LeadHandoffProviderKey');
  const handoff = resourceByPrefix(template, 'AWS::Lambda::Function', 'LeadHandoffFunctionLeadHandoffFunction');

  test('the requests table writes a stream of new images', () => {
    const table = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').resource;
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
  });

  test('the key is held in a secret the stack creates empty: no value in the template', () => {
    expect(secret.resource.Properties).not.toHaveProperty('SecretString');
    expect(secret.resource.Properties).not.toHaveProperty('GenerateSecretString');
    expect(secret.resource.Properties.Description).toMatch(/Kit.*put-secret-value/);
    template.hasOutput('MailProviderSecretArn', { Value: { Ref: secret.logicalId } });
  });

  test('the queue is encrypted, TLS-only, hides a message six times the timeout, and dead-letters after ten receives', () => {
    expect(queue.resource.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 6 * catalogueFunctions.leadHandoff.timeoutSeconds,
      MessageRetentionPeriod: 7 * 24 * 3600,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterQueue.logicalId, 'Arn'] }, maxReceiveCount: 10 },
    });
    expect(deadLetterQueue.resource.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queue.logicalId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  test('only new requests whose reader ticked the list box invoke it from the stream; failures go to the dead-letter queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: handoff.logicalId },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^DataRequestsTable'), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: {
                NewImage: {
                  consent: { M: { at: { S: [{ exists: true }] }, mailing_list: { M: { joined: { BOOL: [true] } } } } },
                },
              },
            }),
          },
        ],
      },
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [deadLetterQueue.logicalId, 'Arn'] } } },
    });
  });

  test('the queue invokes it with batch item failures, at most two at a time', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: handoff.logicalId },
      EventSourceArn: { 'Fn::GetAtt': [queue.logicalId, 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 2 },
    });
  });

  test("the save and form functions know the provider, so each request's consent record names it", () => {
    for (const prefix of ['ApiSaveRequestSaveRequestFunction', 'ApiSubmitFormSubmitFormFunction']) {
      const fn = resourceByPrefix(template, 'AWS::Lambda::Function', prefix).resource;
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.MAIL_PROVIDER).toBe('kit');
    }
  });

  test('the function knows the provider, its form, the secret and both queues', () => {
    expect((handoff.resource.Properties.Environment as { Variables: unknown }).Variables).toMatchObject({
      MAIL_PROVIDER: 'kit',
      MAIL_PROVIDER_LIST: '1234567',
      MAIL_PROVIDER_SECRET_ARN: { Ref: secret.logicalId },
      LEAD_HANDOFF_QUEUE_URL: { Ref: queue.logicalId },
      LEAD_HANDOFF_DEAD_LETTER_QUEUE_URL: { Ref: deadLetterQueue.logicalId },
    });
    // Double opt-in is the default: the variable that turns it off is absent.
    expect((handoff.resource.Properties.Environment as { Variables: unknown }).Variables).not.toHaveProperty(
      'MAIL_PROVIDER_DOUBLE_OPT_IN',
    );
    expect(handoff.resource.Properties).toMatchObject({
      MemorySize: catalogueFunctions.leadHandoff.memoryMb,
      Timeout: catalogueFunctions.leadHandoff.timeoutSeconds,
    });
  });

  test('its role may read the secret, read and record the request, use both queues, and nothing else of the data', () => {
    const actions = roleActions(template, 'LeadHandoffFunctionLeadHandoffFunction');
    expect(actions.get('secretsmanager:GetSecretValue')).toEqual([{ Ref: secret.logicalId }]);
    const table = {
      'Fn::GetAtt': [resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').logicalId, 'Arn'],
    };
    expect(actions.get('dynamodb:GetItem')).toEqual([table]);
    expect(actions.get('dynamodb:UpdateItem')).toEqual([table]);
    expect([...actions.keys()].filter((action) => action.startsWith('dynamodb:')).sort()).toEqual([
      'dynamodb:DescribeStream',
      'dynamodb:GetItem',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      'dynamodb:ListStreams',
      'dynamodb:UpdateItem',
    ]);
    expect(actions.get('sqs:ChangeMessageVisibility')).toEqual([{ 'Fn::GetAtt': [queue.logicalId, 'Arn'] }]);
    expect(actions.get('sqs:SendMessage')).toEqual(
      expect.arrayContaining([
        { 'Fn::GetAtt': [queue.logicalId, 'Arn'] },
        { 'Fn::GetAtt': [deadLetterQueue.logicalId, 'Arn'] },
      ]),
    );
    expect([...actions.keys()].some((action) => action === 'dynamodb:Scan' || action.startsWith('ses:'))).toBe(false);
  });

  test("the leads' key lets its role decrypt the table and its stream", () => {
    const key = resourceByPrefix(template, 'AWS::KMS::Key', 'LeadsKey').resource;
    const role = (handoff.resource.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain(role);
  });

  test("a message in the dead-letter queue raises the hand-off's own DeadLetters ticket, named after it", () => {
    const [alarm] = alarmsOf(template).filter(({ Properties }) =>
      Properties.AlarmName.endsWith('-DeadLetters-LeadHandoff'),
    );
    expect(alarm.Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Value: { 'Fn::GetAtt': [deadLetterQueue.logicalId, 'QueueName'] } }],
      Threshold: 1,
      TreatMissingData: 'notBreaching',
    });
    expect(alarm.Properties.AlarmDescription).toMatch(
      /^Hurt: the dead-letter queue of LeadHandoff\. Severity: ticket\. .*Runbook: .*#deadletters-leadhandoff$/,
    );
    expect(alarm.Properties.AlarmActions).toHaveLength(1);
  });
});

describe('with mailProvider webhook', () => {
  const template = synthTemplate({
    context: {
      ...context,
      mailProvider: 'webhook',
      webhookUrl: 'https://hooks.example.com/leads',
      mailProviderDoubleOptIn: 'false',
    },
  });

  test('the function posts to the webhook address, and has no list', () => {
    const handoff = resourceByPrefix(
      template,
      'AWS::Lambda::Function',
      'LeadHandoffFunctionLeadHandoffFunction',
    ).resource;
    const variables = (handoff.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables).toMatchObject({ MAIL_PROVIDER: 'webhook', WEBHOOK_URL: 'https://hooks.example.com/leads' });
    expect(variables).not.toHaveProperty('MAIL_PROVIDER_LIST');
  });

  test('with mailProviderDoubleOptIn=false, the function hands readers off as confirmed', () => {
    const handoff = resourceByPrefix(template, 'AWS::Lambda::Function', 'LeadHandoffFunctionLeadHandoffFunction');
    const variables = (handoff.resource.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.MAIL_PROVIDER_DOUBLE_OPT_IN).toBe('off');
  });
});

describe('without mailProvider', () => {
  const template = synthTemplate({ context });

  test('no queue, no secret for a key, no hand-off function, no stream, no dead-letter alarm', () => {
    expect(Object.keys(template.findResources('AWS::SQS::Queue')).filter((id) => id.startsWith('LeadHandoff'))).toEqual(
      [],
    );
    expect(
      Object.keys(template.findResources('AWS::SecretsManager::Secret')).filter((id) => id.startsWith('LeadHandoff')),
    ).toEqual([]);
    expect(
      Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => id.startsWith('LeadHandoff')),
    ).toEqual([]);
    const table = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').resource;
    expect(table.Properties).not.toHaveProperty('StreamSpecification');
    expect(alarmsOf(template).some(({ Properties }) => Properties.AlarmName.includes('LeadHandoff'))).toBe(false);
    expect(template.toJSON().Outputs).not.toHaveProperty('MailProviderSecretArn');
    const save = resourceByPrefix(template, 'AWS::Lambda::Function', 'ApiSaveRequestSaveRequestFunction').resource;
    expect((save.Properties.Environment as { Variables: Record<string, unknown> }).Variables).not.toHaveProperty(
      'MAIL_PROVIDER',
    );
  });
});
