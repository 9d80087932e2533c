/**
 * The mail-key workflow's role: only this repository's mail-key workflow, on main, in the stage's
 * GitHub environment, may assume it; it may write the mail provider's secret and read the stack's
 * outputs, and nothing else (not even read the key back).
 */
import { Template } from 'aws-cdk-lib/assertions';
import { MailKeyAccess } from '../../../infra/constructs/mail-key-access';
import { bareStack } from '../support/bare-stack';

const secretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:mail-provider';

function synthesize() {
  const stack = bareStack();
  new MailKeyAccess(stack, 'MailKeyAccess', {
    repository: { owner: 'author', name: 'book-site' },
    environment: 'production',
    mailProviderSecretArn: secretArn,
  });
  return Template.fromStack(stack);
}

const template = synthesize();

test("trusts only the repository's mail-key workflow on main, in the stage's environment", () => {
  const [role] = Object.values(template.findResources('AWS::IAM::Role')) as {
    Properties: { AssumeRolePolicyDocument: { Statement: { Condition: { StringEquals: Record<string, string> } }[] } };
  }[];
  const conditions = role!.Properties.AssumeRolePolicyDocument.Statement[0]!.Condition.StringEquals;
  expect(conditions).toMatchObject({
    'token.actions.githubusercontent.com:sub': 'repo:author/book-site:environment:production',
    'token.actions.githubusercontent.com:job_workflow_ref':
      'author/book-site/.github/workflows/mail-key.yml@refs/heads/main',
  });
});

test("may write the provider's secret and describe the stack, and nothing else", () => {
  const [policy] = Object.values(template.findResources('AWS::IAM::Policy')) as {
    Properties: { PolicyDocument: { Statement: { Action: string; Resource: unknown }[] } };
  }[];
  const statements = policy!.Properties.PolicyDocument.Statement;
  expect(statements.map(({ Action }) => Action).sort()).toEqual([
    'cloudformation:DescribeStacks',
    'secretsmanager:PutSecretValue',
  ]);
  expect(statements.find(({ Action }) => Action === 'secretsmanager:PutSecretValue')?.Resource).toBe(secretArn);
});
