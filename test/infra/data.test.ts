import { Match, type Template } from 'aws-cdk-lib/assertions';
import { cheatSheetFileName } from '../../frontend/src/content/cheat-sheet';
import { emailIndex, partitionKey, tableName } from '../../lambdas/shared/table-schema';
import { createTestApp, privateBucketHardening, resourceByPrefix, synthTemplate } from './support/synth';

describe('the data construct', () => {
  let template: Template;
  beforeAll(() => {
    template = synthTemplate();
  });

  it('defines cheat_sheet_requests from the shared schema, on demand, with the e-mail index', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: partitionKey, KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: emailIndex.name,
          KeySchema: [
            { AttributeName: emailIndex.partitionKey, KeyType: 'HASH' },
            { AttributeName: emailIndex.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    });
  });

  it('protects the table: point-in-time recovery, KMS encryption, deletion protection', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      // SSEEnabled without a key: KMS with the AWS managed key aws/dynamodb.
      SSESpecification: { SSEEnabled: true, KMSMasterKeyId: Match.absent() },
      DeletionProtectionEnabled: true,
    });
  });

  it('keeps the table when the stack is deleted or the table replaced', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('keeps the PDF bucket private: public access blocked, TLS only, encrypted, versioned, logged', () => {
    const bucket = resourceByPrefix(template, 'AWS::S3::Bucket', 'DataCheatSheetBucket');
    expect(bucket.resource.Properties).toMatchObject({
      ...privateBucketHardening,
      LoggingConfiguration: { LogFilePrefix: 's3/cheat-sheet/' },
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

  it('deploys only the generated PDF into the PDF bucket, as application/pdf', () => {
    const bucketId = resourceByPrefix(template, 'AWS::S3::Bucket', 'DataCheatSheetBucket').logicalId;
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: bucketId },
      Exclude: ['*'],
      Include: [cheatSheetFileName],
      SystemMetadata: { 'content-type': 'application/pdf' },
    });
  });

  it('keeps access logs a year, encrypted, private and TLS only, and retains them after the stack', () => {
    const logs = resourceByPrefix(template, 'AWS::S3::Bucket', 'DataAccessLogsBucket');
    expect(logs.resource).toMatchObject({ DeletionPolicy: 'Retain' });
    expect(logs.resource.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: 365, Status: 'Enabled' }] },
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

  it('refuses to synthesize without the generated PDF, saying to run npm run build', () => {
    expect(() => createTestApp({ buildOutput: { cheatSheetDirectory: '/nonexistent/dist/cheat-sheet' } })).toThrow(
      `The cheat sheet /nonexistent/dist/cheat-sheet/${cheatSheetFileName} does not exist: run \`npm run build\` first`,
    );
  });
});
