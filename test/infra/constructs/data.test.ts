import { Match, Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { cheatSheetFileName } from '../../../core/content/cheat-sheet';
import { funnelVisitorsTableName, keptTables, tables } from '../../../core/data/tables';
import { Data, type DataProps } from '../../../infra/constructs/data';
import { bareStack } from '../support/bare-stack';
import { fixtures, privateBucketHardening, resourceByPrefix } from '../support/synth';

/** The Data construct in a stack of its own, with the one thing it needs: a key. */
function dataInBareStack(props: Partial<DataProps> = {}): Template {
  const stack = bareStack();
  new Data(stack, 'Data', {
    encryptionKey: new Key(stack, 'LeadsKey'),
    cheatSheetDirectory: fixtures.cheatSheetDirectory,
    ...props,
  });
  return Template.fromStack(stack);
}

describe('the data construct', () => {
  let template: Template;
  beforeAll(() => {
    template = dataInBareStack();
  });

  test('defines cheat_sheet_requests from the shared schema, on demand, with the e-mail index and the sparse unsent index', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: 'cheat_sheet_requests',
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'email-requested_at-index',
          KeySchema: [
            { AttributeName: 'email', KeyType: 'HASH' },
            { AttributeName: 'requested_at', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'unsent_queue-requested_at-index',
          KeySchema: [
            { AttributeName: 'unsent_queue', KeyType: 'HASH' },
            { AttributeName: 'requested_at', KeyType: 'RANGE' },
          ],
          // The unsent check reads these three, never a name or an address.
          Projection: {
            ProjectionType: 'INCLUDE',
            NonKeyAttributes: ['delivery_status', 'cheat_sheet_sent', 'failure_code', 'superseded_by'],
          },
        },
      ],
    });
  });

  test('has exactly the tables core/data/tables.ts describes', () => {
    const names = Object.values(template.findResources('AWS::DynamoDB::Table')).map(
      (table) => table.Properties.TableName,
    );
    expect(names.sort()).toEqual(tables.map((table) => table.name).sort());
  });

  test('protects every kept table alike: on demand, point-in-time recovery, the leads key, deletion protection, retained', () => {
    const kept = Object.values(template.findResources('AWS::DynamoDB::Table')).filter(
      (table) => table.Properties.TableName !== funnelVisitorsTableName,
    );
    expect(kept.map((table) => table.Properties.TableName).sort()).toEqual(keptTables.map(({ name }) => name).sort());
    for (const table of kept) {
      expect(table).toMatchObject({
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
        Properties: {
          BillingMode: 'PAY_PER_REQUEST',
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
          // KMS with the leads' own key, not the AWS managed aws/dynamodb.
          SSESpecification: {
            SSEEnabled: true,
            SSEType: 'KMS',
            KMSMasterKeyId: { 'Fn::GetAtt': [expect.stringMatching(/^LeadsKey/), 'Arn'] },
          },
        },
      });
    }
  });

  test("keeps the funnel's salt and visitor marks where no backup keeps them: no point-in-time recovery, TTL, deleted with the stack, under the leads key", () => {
    const visitors = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataFunnelVisitorsTable').resource;
    expect(visitors).toMatchObject({
      DeletionPolicy: 'Delete',
      UpdateReplacePolicy: 'Delete',
      Properties: {
        TableName: 'cheat_sheet_funnel_visitors',
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
        DeletionProtectionEnabled: false,
        SSESpecification: {
          SSEEnabled: true,
          SSEType: 'KMS',
          KMSMasterKeyId: { 'Fn::GetAtt': [expect.stringMatching(/^LeadsKey/), 'Arn'] },
        },
      },
    });
    expect(visitors.Properties.GlobalSecondaryIndexes).toBeUndefined();
  });

  test("defines cheat_sheet_idempotency from the shared schema: on demand, keyed by id, no index, TTL on Powertools' expiration", () => {
    const keys = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataIdempotencyTable').resource.Properties;
    expect(keys).toMatchObject({
      TableName: 'cheat_sheet_idempotency',
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
    });
    expect(keys).not.toHaveProperty('GlobalSecondaryIndexes');
  });

  test('defines cheat_sheet_send_quotas from the shared schema: on demand, keyed by id, no index, TTL on expires_at', () => {
    const quota = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataSendQuotaTable').resource.Properties;
    expect(quota).toMatchObject({
      TableName: 'cheat_sheet_send_quotas',
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
    });
    expect(quota.GlobalSecondaryIndexes).toBeUndefined();
  });

  test('gives the requests table no TTL: requests are kept', () => {
    const requests = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').resource.Properties;
    expect(requests.TimeToLiveSpecification).toBeUndefined();
  });

  test('with requestRetentionDays, puts a TTL on expires_at on the requests table', () => {
    const withRetention = dataInBareStack({ requestRetentionDays: 365 });
    const requests = resourceByPrefix(withRetention, 'AWS::DynamoDB::Table', 'DataRequestsTable').resource.Properties;
    expect(requests.TimeToLiveSpecification).toEqual({ AttributeName: 'expires_at', Enabled: true });
  });

  test('keeps the PDF bucket private: public access blocked, TLS only, SSE-S3 (the PDF is public content), versioned, logged, events to EventBridge', () => {
    const bucket = resourceByPrefix(template, 'AWS::S3::Bucket', 'DataCheatSheetBucket');
    template.hasResourceProperties('AWS::S3::Bucket', {
      ...privateBucketHardening,
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 's3/cheat-sheet/' }),
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucket.logicalId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Deny', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }),
        ]),
      },
    });
  });

  test('deploys only the generated PDF into the PDF bucket, as application/pdf', () => {
    const bucketId = resourceByPrefix(template, 'AWS::S3::Bucket', 'DataCheatSheetBucket').logicalId;
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: bucketId },
      Exclude: ['*'],
      Include: [cheatSheetFileName],
      SystemMetadata: { 'content-type': 'application/pdf' },
    });
  });

  test('keeps access logs a year, SSE-S3 (the only encryption log delivery takes), versioned, private and TLS only, and retains them after the stack', () => {
    const logs = resourceByPrefix(template, 'AWS::S3::Bucket', 'DataAccessLogsBucket');
    expect(logs.resource).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
    expect(logs.resource.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      VersioningConfiguration: { Status: 'Enabled' },
      LifecycleConfiguration: {
        Rules: [{ ExpirationInDays: 365, NoncurrentVersionExpiration: { NoncurrentDays: 30 }, Status: 'Enabled' }],
      },
      NotificationConfiguration: { EventBridgeConfiguration: { EventBridgeEnabled: true } },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logs.logicalId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  test('refuses to synthesize without the generated PDF, saying to run npm run build', () => {
    expect(() => dataInBareStack({ cheatSheetDirectory: '/nonexistent/dist/cheat-sheet' })).toThrow(
      `The cheat sheet /nonexistent/dist/cheat-sheet/${cheatSheetFileName} does not exist: run \`npm run build\` first`,
    );
  });
});
