/** Stack-wide rules that no single construct's test can see. */
import type { Template } from 'aws-cdk-lib/assertions';
import { resourceByPrefix, synthTemplate } from './support/synth';

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
    policy: /^(Api|SendingPause)\w+RoleDefaultPolicy/,
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

  test('gives every Lambda function, CDK-defined ones included, its own log group', () => {
    const logGroups = template.findResources('AWS::Logs::LogGroup');
    const functions = Object.entries(template.findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThan(0);
    for (const [id, fn] of functions) {
      const logGroupId = fn.Properties.LoggingConfig?.LogGroup?.Ref as string | undefined;
      expect({ id, logGroup: logGroupId !== undefined && logGroupId in logGroups }).toEqual({ id, logGroup: true });
    }
  });

  test("keeps every log group's events at least a year, encrypted with the stack's customer managed key", () => {
    const keyId = resourceByPrefix(template, 'AWS::KMS::Key', 'EncryptionKey').logicalId;
    const logGroups = Object.entries(template.findResources('AWS::Logs::LogGroup'));
    expect(logGroups.length).toBeGreaterThanOrEqual(5); // two functions, API access, two CDK handlers
    for (const [id, logGroup] of logGroups) {
      expect({ id, retention: logGroup.Properties.RetentionInDays >= 365, key: logGroup.Properties.KmsKeyId }).toEqual({
        id,
        retention: true,
        key: { 'Fn::GetAtt': [keyId, 'Arn'] },
      });
    }
  });

  test('versions every bucket, expires its old versions, and sends its events to EventBridge', () => {
    for (const [id, bucket] of Object.entries(template.findResources('AWS::S3::Bucket'))) {
      const rules = bucket.Properties.LifecycleConfiguration.Rules as Array<Record<string, any>>;
      expect({
        id,
        versioning: bucket.Properties.VersioningConfiguration,
        events: bucket.Properties.NotificationConfiguration,
        expiresOldVersions: rules.some((rule) => rule.NoncurrentVersionExpiration?.NoncurrentDays > 0),
      }).toEqual({
        id,
        versioning: { Status: 'Enabled' },
        events: { EventBridgeConfiguration: { EventBridgeEnabled: true } },
        expiresOldVersions: true,
      });
    }
    // EventBridge is set on the buckets themselves: no CDK notifications function.
    expect(template.findResources('Custom::S3BucketNotifications')).toEqual({});
  });

  test("encrypts every bucket whose readers support it with the stack's key; the access-log bucket keeps SSE-S3", () => {
    const keyId = resourceByPrefix(template, 'AWS::KMS::Key', 'EncryptionKey').logicalId;
    const encryption = Object.fromEntries(
      Object.entries(template.findResources('AWS::S3::Bucket')).map(([id, bucket]) => [
        id.replace(/[0-9A-F]{8}$/, ''),
        bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault,
      ]),
    );
    expect(encryption).toEqual({
      SiteBucket: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: { 'Fn::GetAtt': [keyId, 'Arn'] } },
      DataCheatSheetBucket: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: { 'Fn::GetAtt': [keyId, 'Arn'] } },
      DataAccessLogsBucket: { SSEAlgorithm: 'AES256' },
    });
  });
});
