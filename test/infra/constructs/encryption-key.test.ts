/** The stack's one customer managed key and who may use it. */
import { Template } from 'aws-cdk-lib/assertions';
import { EncryptionKey } from '../../../infra/constructs/encryption-key';
import { bareStack } from '../support/bare-stack';
import { resourceByPrefix } from '../support/synth';

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

  test("lets CloudWatch Logs use it for this stack's log groups alone (their names start with the stack name), and nothing more", () => {
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
                  ':log-group:TestStack-*',
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
      Sid: 'GrantsOnlyForAwsResources',
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: 'kms:CreateGrant',
      Resource: '*',
      Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
    });
  });
});
