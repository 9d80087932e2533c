/** The stack's one customer managed key and who may use it. */
import { Template } from 'aws-cdk-lib/assertions';
import { EncryptionKey } from '../../infra/constructs/encryption-key';
import { bareStack } from './support/bare-stack';
import { resourceByPrefix, synthTemplate } from './support/synth';

type Statement = { Effect: string; Principal?: unknown; Action: string | string[]; Condition?: unknown };

function keyPolicyStatements(key: ReturnType<typeof resourceByPrefix>): Statement[] {
  return (key.resource.Properties.KeyPolicy as { Statement: Statement[] }).Statement;
}

describe('the encryption key construct', () => {
  let key: ReturnType<typeof resourceByPrefix>;
  let statements: Statement[];
  beforeAll(() => {
    const stack = bareStack();
    new EncryptionKey(stack, 'EncryptionKey');
    key = resourceByPrefix(Template.fromStack(stack), 'AWS::KMS::Key', 'EncryptionKey');
    statements = keyPolicyStatements(key);
  });

  test('rotates yearly and outlives the stack, since retained logs and buckets need it, but not a rolled-back create', () => {
    expect(key.resource.Properties.EnableKeyRotation).toBe(true);
    expect(key.resource).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
  });

  test("lets CloudWatch Logs use it for this account's log groups in this region, and nothing more", () => {
    const logs = statements.filter((statement) => JSON.stringify(statement.Principal ?? '').includes('logs.'));
    expect(logs).toEqual([
      {
        Effect: 'Allow',
        Principal: { Service: { 'Fn::Join': ['', ['logs.', { Ref: 'AWS::Region' }, '.amazonaws.com']] } },
        Action: ['kms:Decrypt*', 'kms:Describe*', 'kms:Encrypt*', 'kms:GenerateDataKey*', 'kms:ReEncrypt*'],
        Resource: '*',
        Condition: {
          ArnLike: {
            'kms:EncryptionContext:aws:logs:arn': {
              'Fn::Join': [
                '',
                [
                  'arn:',
                  { Ref: 'AWS::Partition' },
                  ':logs:',
                  { Ref: 'AWS::Region' },
                  ':',
                  { Ref: 'AWS::AccountId' },
                  ':log-group:*',
                ],
              ],
            },
          },
        },
      },
    ]);
  });

  test('refuses every KMS grant except one an AWS service makes for an AWS resource', () => {
    expect(statements).toContainEqual({
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: 'kms:CreateGrant',
      Resource: '*',
      Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
    });
  });
});

describe("the product's encryption key", () => {
  let template: Template;
  let key: ReturnType<typeof resourceByPrefix>;
  let statements: Statement[];
  beforeAll(() => {
    template = synthTemplate();
    key = resourceByPrefix(template, 'AWS::KMS::Key', 'EncryptionKey');
    statements = keyPolicyStatements(key);
  });

  test('is the only KMS key: the alarm topic, the log groups and the buckets share it', () => {
    template.resourceCountIs('AWS::KMS::Key', 1);
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [key.logicalId, 'Arn'] } });
  });

  test("lets CloudFront decrypt for this account's distributions only, as the site bucket's origin needs", () => {
    const cloudFront = statements.filter((statement) =>
      JSON.stringify(statement.Principal ?? '').includes('cloudfront'),
    );
    expect(cloudFront).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Condition: {
          ArnLike: {
            'AWS:SourceArn': {
              'Fn::Join': [
                '',
                ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::', { Ref: 'AWS::AccountId' }, ':distribution/*'],
              ],
            },
          },
        },
      }),
    ]);
  });

  test('is exported as an output, for whoever schedules its deletion after the kept buckets and logs', () => {
    template.hasOutput('EncryptionKeyArn', { Value: { 'Fn::GetAtt': [key.logicalId, 'Arn'] } });
  });
});

describe("the functions' invoke permissions", () => {
  test("name API Gateway, this API's route and this account, a literal one when the stack has an account", () => {
    for (const [account, expected] of [
      [undefined, { Ref: 'AWS::AccountId' }],
      ['123456789012', '123456789012'],
    ] as const) {
      const template = synthTemplate({ env: account ? { account, region: 'eu-west-1' } : undefined });
      // The API's; the pause function's own permission (SNS, from the alarm topic) is tested with it.
      const permissions = Object.values(template.findResources('AWS::Lambda::Permission')).filter(
        (permission) => permission.Properties.Principal !== 'sns.amazonaws.com',
      );
      // One per route: every function's POST route and its ANY twin.
      expect(permissions).toHaveLength(Object.keys(template.findResources('AWS::ApiGatewayV2::Route')).length);
      for (const permission of permissions) {
        expect(permission.Properties).toMatchObject({
          Principal: 'apigateway.amazonaws.com',
          SourceAccount: expected,
          SourceArn: { 'Fn::Join': expect.anything() },
        });
      }
    }
  });
});
