/**
 * The leads workflows' roles: each trusts only this repository's workflows in the stage's GitHub
 * environment, and has exactly the documented rights (leadsReaderActions, leadsOperatorActions).
 */
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { LeadsAccess, leadsOperatorActions, leadsReaderActions } from '../../../infra/constructs/leads-access';
import { bareStack } from '../support/bare-stack';

interface Statement {
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Condition?: Record<string, Record<string, unknown>>;
}
interface RoleResource {
  readonly Properties: {
    readonly AssumeRolePolicyDocument: { readonly Statement: { Principal: unknown; Condition?: unknown }[] };
    readonly Description?: string;
  };
}

function synthesize(authorEmail?: string) {
  const stack = bareStack();
  const table = (id: string) => new Table(stack, id, { partitionKey: { name: 'id', type: AttributeType.STRING } });
  const sendRole = new Role(stack, 'SendRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  new LeadsAccess(stack, 'LeadsAccess', {
    repository: { owner: 'author', name: 'book-site' },
    environment: 'production',
    requestsTable: table('Requests'),
    limitCountersTable: table('Counters'),
    idempotencyTable: table('IdempotencyKeys'),
    mailProviderSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:mail-provider',
    deploymentSecret: Secret.fromSecretCompleteArn(
      stack,
      'OriginSecret',
      'arn:aws:secretsmanager:eu-west-1:123456789012:secret:origin-AbCdEf',
    ),
    senderIdentityArn: 'arn:aws:ses:eu-west-1:123456789012:identity/example.com',
    configurationSetArn: 'arn:aws:ses:eu-west-1:123456789012:configuration-set/cheat-sheet',
    ...(authorEmail !== undefined && {
      author: { email: authorEmail, digestFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:digest' },
    }),
    sendFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:send',
    sendFunctionRole: sendRole,
  });
  return Template.fromStack(stack);
}

const roleNamed = (template: Template, fragment: string) =>
  Object.entries(template.findResources('AWS::IAM::Role') as Record<string, RoleResource>).find(([id]) =>
    id.includes(fragment),
  )!;

function actionsOf(template: Template, roleId: string): string[] {
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as {
    Properties: { Roles: { Ref: string }[]; PolicyDocument: { Statement: Statement[] } };
  }[];
  return policies
    .filter((policy) => policy.Properties.Roles.some((role) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement.flatMap((statement) => [statement.Action].flat()))
    .sort();
}

describe.each([
  ['ReaderRole', leadsReaderActions],
  ['OperatorRole', leadsOperatorActions],
])('the %s', (fragment, documented) => {
  const template = synthesize('author@example.com');
  const [id, role] = roleNamed(template, fragment);

  test("trusts only this repository's Leads workflow, run from main in the stage's GitHub environment, through GitHub's OIDC provider", () => {
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: {
          StringEquals: {
            'token.actions.githubusercontent.com:sub': 'repo:author/book-site:environment:production',
            'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
            'token.actions.githubusercontent.com:repository': 'author/book-site',
            'token.actions.githubusercontent.com:environment': 'production',
            'token.actions.githubusercontent.com:ref': 'refs/heads/main',
            'token.actions.githubusercontent.com:job_workflow_ref':
              'author/book-site/.github/workflows/leads.yml@refs/heads/main',
          },
        },
      }),
    ]);
  });

  test('has exactly the documented rights', () => {
    expect([...new Set(actionsOf(template, id))]).toEqual([...documented].sort());
  });
});

test("the reader may look up and delete in the idempotency keys' table, and read the mail provider's key and the deployment's secret only", () => {
  const template = synthesize('author@example.com');
  const [id] = roleNamed(template, 'ReaderRole');
  const statements = (
    Object.values(template.findResources('AWS::IAM::Policy')) as {
      Properties: { Roles: { Ref: string }[]; PolicyDocument: { Statement: Statement[] } };
    }[]
  )
    .filter((policy) => policy.Properties.Roles.some((role) => role.Ref === id))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
  const secretReads = statements.filter((statement) => statement.Action === 'secretsmanager:GetSecretValue');
  // The deployment's secret: erase computes the keyed ids of the address's counters and suppression entry.
  expect(secretReads.flatMap((statement) => [statement.Resource].flat()).sort()).toEqual([
    'arn:aws:secretsmanager:eu-west-1:123456789012:secret:mail-provider',
    'arn:aws:secretsmanager:eu-west-1:123456789012:secret:origin-AbCdEf',
  ]);
  // erase reads each record (a consistent GetItem) before it deletes it (ops/leads/erase-address.ts).
  const idempotencyActions = statements
    .filter((statement) => JSON.stringify(statement.Resource).includes('IdempotencyKeys'))
    .flatMap((statement) => [statement.Action].flat());
  expect(idempotencyActions.sort()).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem']);
});

test('the reader may mail the export only to the author', () => {
  const template = synthesize('author@example.com');
  const [id] = roleNamed(template, 'ReaderRole');
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as {
    Properties: { Roles: { Ref: string }[]; PolicyDocument: { Statement: Statement[] } };
  }[];
  const send = policies
    .filter((policy) => policy.Properties.Roles.some((role) => role.Ref === id))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
    .find((statement) => statement.Action === 'ses:SendEmail');
  expect(send?.Condition).toEqual({ 'ForAllValues:StringEquals': { 'ses:Recipients': ['author@example.com'] } });
});

test('without authorEmail the reader cannot send e-mail at all', () => {
  const template = synthesize(undefined);
  const [id] = roleNamed(template, 'ReaderRole');
  expect(actionsOf(template, id)).not.toContain('ses:SendEmail');
});

test("the reader may read the digest function's configuration only, where the author's address is", () => {
  const template = synthesize('author@example.com');
  const [id] = roleNamed(template, 'ReaderRole');
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as {
    Properties: { Roles: { Ref: string }[]; PolicyDocument: { Statement: Statement[] } };
  }[];
  const read = policies
    .filter((policy) => policy.Properties.Roles.some((role) => role.Ref === id))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
    .filter((statement) => [statement.Action].flat().includes('lambda:GetFunctionConfiguration'));
  expect(read.map((statement) => statement.Resource)).toEqual([
    'arn:aws:lambda:eu-west-1:123456789012:function:digest',
  ]);
});

test("the send function's role trusts the operator role, so resend sends with the function's rights", () => {
  const template = synthesize('author@example.com');
  const [operatorId] = roleNamed(template, 'OperatorRole');
  const [, sendRole] = roleNamed(template, 'SendRole');
  expect(sendRole.Properties.AssumeRolePolicyDocument.Statement).toContainEqual(
    expect.objectContaining({
      Action: 'sts:AssumeRole',
      Principal: expect.objectContaining({ AWS: expect.arrayContaining([{ 'Fn::GetAtt': [operatorId, 'Arn'] }]) }),
    }),
  );
});

test("the break-glass role has the operator's rights, and only the account's own principals with MFA may assume it", () => {
  const template = synthesize('author@example.com');
  const [id, role] = roleNamed(template, 'BreakGlassRole');
  expect([...new Set(actionsOf(template, id))]).toEqual([...leadsOperatorActions].sort());
  expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
    expect.objectContaining({
      Action: 'sts:AssumeRole',
      Principal: {
        AWS: expect.objectContaining({ 'Fn::Join': expect.arrayContaining([expect.arrayContaining([':root'])]) }),
      },
      Condition: { Bool: { 'aws:MultiFactorAuthPresent': 'true' } },
    }),
  ]);
});

test("the send function's role trusts the break-glass role too, so resend from a terminal sends with the function's rights", () => {
  const template = synthesize('author@example.com');
  const [breakGlassId] = roleNamed(template, 'BreakGlassRole');
  const [, sendRole] = roleNamed(template, 'SendRole');
  expect(JSON.stringify(sendRole.Properties.AssumeRolePolicyDocument.Statement)).toContain(
    JSON.stringify({ 'Fn::GetAtt': [breakGlassId, 'Arn'] }),
  );
});
