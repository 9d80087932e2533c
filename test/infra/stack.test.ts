/** Stack-wide rules that no single construct's test can see. */
import type { Template } from 'aws-cdk-lib/assertions';
import { synthTemplate } from './support/synth';

type Statement = { Effect: string; Action: string | string[]; Resource?: unknown };

/** Every statement of every IAM policy in the template, with the policy's logical ID. */
function iamStatements(template: Template): Array<{ policy: string; statement: Statement }> {
  const documents: Array<[string, { Statement: Statement[] }]> = [
    ...Object.entries(template.findResources('AWS::IAM::Policy')).map(
      ([id, policy]) => [id, policy.Properties.PolicyDocument] as [string, { Statement: Statement[] }],
    ),
    ...Object.entries(template.findResources('AWS::IAM::ManagedPolicy')).map(
      ([id, policy]) => [id, policy.Properties.PolicyDocument] as [string, { Statement: Statement[] }],
    ),
    ...Object.entries(template.findResources('AWS::IAM::Role')).flatMap(([id, role]) =>
      ((role.Properties.Policies ?? []) as Array<{ PolicyDocument: { Statement: Statement[] } }>).map(
        (inline) => [id, inline.PolicyDocument] as [string, { Statement: Statement[] }],
      ),
    ),
  ];
  return documents.flatMap(([policy, document]) => document.Statement.map((statement) => ({ policy, statement })));
}

/**
 * The statements allowed a `*` resource, each with its reason. Add one only where the actions
 * have no resource-level permissions at all (issue 4: no `*` where a single ARN exists).
 */
const allowedStarResources: ReadonlyArray<{ policy: RegExp; actions: readonly string[]; reason: string }> = [
  {
    policy: /^Api\w+RoleDefaultPolicy/,
    actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
    reason: 'Active tracing: X-Ray has no resource-level permissions for sending segments.',
  },
];

describe('the stack', () => {
  let template: Template;
  beforeAll(() => {
    template = synthTemplate();
  });

  test('grants no IAM permission on a * resource, except the ones listed with a reason', () => {
    const onStar = iamStatements(template)
      .filter(({ statement }) => [statement.Resource].flat().includes('*'))
      .map(({ policy, statement }) => ({ policy, actions: [statement.Action].flat() }));

    const unexplained = onStar.filter(
      ({ policy, actions }) =>
        !allowedStarResources.some(
          (allowed) => allowed.policy.test(policy) && actions.every((action) => allowed.actions.includes(action)),
        ),
    );
    expect(unexplained).toEqual([]);
  });

  test('attaches no AWS managed policy to any role', () => {
    const withManagedPolicies = Object.entries(template.findResources('AWS::IAM::Role'))
      .filter(([, role]) => role.Properties.ManagedPolicyArns !== undefined)
      .map(([id]) => id);
    expect(withManagedPolicies).toEqual([]);
  });

  test('gives every Lambda function, CDK-defined ones included, its own log group with a retention period', () => {
    const logGroups = template.findResources('AWS::Logs::LogGroup');
    const functions = Object.entries(template.findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThan(0);
    for (const [id, fn] of functions) {
      const logGroupId = fn.Properties.LoggingConfig?.LogGroup?.Ref as string | undefined;
      expect({ id, logGroup: logGroupId !== undefined }).toEqual({ id, logGroup: true });
      expect(logGroups[logGroupId!].Properties.RetentionInDays).toBeGreaterThan(0);
    }
  });

  test('keeps every bucket when the stack is deleted, with no auto-delete function', () => {
    const buckets = Object.entries(template.findResources('AWS::S3::Bucket'));
    expect(buckets).toHaveLength(3); // site, PDF, access logs
    for (const [id, bucket] of buckets) {
      expect({ id, DeletionPolicy: bucket.DeletionPolicy, UpdateReplacePolicy: bucket.UpdateReplacePolicy }).toEqual({
        id,
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    }
    expect(template.findResources('Custom::S3AutoDeleteObjects')).toEqual({});
  });
});
