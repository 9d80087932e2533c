import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { customerKey } from '../../../infra/constructs/customer-key';
import { bareStack } from '../support/bare-stack';

type Statement = { Sid?: string; Effect: string; Action: string | string[]; Condition?: unknown };

function keyOf(template: Template): { EnableKeyRotation?: boolean; KeyPolicy: { Statement: Statement[] } } {
  const [key] = Object.values(template.findResources('AWS::KMS::Key'));
  return key!.Properties;
}

describe('a customer managed key of the app', () => {
  const stack = bareStack();
  customerKey(stack, 'Key', { description: 'A key for the test.', removalPolicy: RemovalPolicy.DESTROY });
  const key = keyOf(Template.fromStack(stack));

  test('rotates yearly without being told to', () => {
    expect(key.EnableKeyRotation).toBe(true);
  });

  test('refuses every KMS grant except one an AWS service makes for an AWS resource', () => {
    expect(key.KeyPolicy.Statement).toContainEqual({
      Sid: 'GrantsOnlyForAwsResources',
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: 'kms:CreateGrant',
      Resource: '*',
      Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
    });
  });
});
