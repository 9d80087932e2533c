/** The audit report's rows for what stores data: buckets, tables, log groups, keys, topics, secrets. */
import type { DataDescriber } from './audit-data-row';
import {
  deletion,
  policiesOf,
  propertiesOf,
  referencedIds,
  renderPolicy,
  renderValue,
  type Json,
  type PolicyDocument,
} from './cloudformation-template';

interface BucketProperties {
  BucketEncryption: {
    ServerSideEncryptionConfiguration?: ReadonlyArray<{
      ServerSideEncryptionByDefault: { SSEAlgorithm: string; KMSMasterKeyID?: Json };
      BucketKeyEnabled?: boolean;
    }>;
  };
  LoggingConfiguration: { DestinationBucketName: Json; LogFilePrefix?: string };
  NotificationConfiguration: { EventBridgeConfiguration?: { EventBridgeEnabled?: boolean } };
  LifecycleConfiguration: {
    Rules?: ReadonlyArray<{ ExpirationInDays?: number; NoncurrentVersionExpiration?: { NoncurrentDays: number } }>;
  };
  VersioningConfiguration: { Status: string };
  ObjectLockEnabled: boolean;
  PublicAccessBlockConfiguration: Readonly<Record<string, boolean>>;
}

export const describeBucket: DataDescriber = (view, id, resource) => {
  const props = propertiesOf<BucketProperties>(resource);
  const sse = props.BucketEncryption?.ServerSideEncryptionConfiguration?.[0];
  const policy = policiesOf(view, 'AWS::S3::BucketPolicy', 'Bucket', id);
  const tls = policy.some((s) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false');
  const tls12 = policy.some(
    (s) => s.Effect === 'Deny' && s.Condition?.NumericLessThan?.['s3:TlsVersion'] !== undefined,
  );
  const encryption = !sse
    ? 'S3 default (SSE-S3)'
    : sse.ServerSideEncryptionByDefault.SSEAlgorithm === 'AES256'
      ? 'SSE-S3 (AES-256)'
      : `SSE-KMS with ${renderValue(sse.ServerSideEncryptionByDefault.KMSMasterKeyID)}${sse.BucketKeyEnabled ? ', S3 Bucket Key' : ''}`;
  const logging = [
    props.LoggingConfiguration
      ? `server access logs → ${renderValue(props.LoggingConfiguration.DestinationBucketName)}, prefix \`${props.LoggingConfiguration.LogFilePrefix ?? ''}\``
      : 'no server access logs',
    props.NotificationConfiguration?.EventBridgeConfiguration?.EventBridgeEnabled ? 'object events → EventBridge' : '',
  ].filter(Boolean);
  const rules = props.LifecycleConfiguration?.Rules ?? [];
  const retention = [
    props.VersioningConfiguration?.Status === 'Enabled' ? 'versioned' : 'not versioned',
    ...rules.flatMap((rule) => [
      rule.ExpirationInDays ? `objects expire after ${rule.ExpirationInDays} days` : '',
      rule.NoncurrentVersionExpiration
        ? `old versions after ${rule.NoncurrentVersionExpiration.NoncurrentDays} days`
        : '',
    ]),
    props.ObjectLockEnabled ? 'Object Lock' : '',
    deletion(resource),
  ].filter(Boolean);
  const block = props.PublicAccessBlockConfiguration ?? {};
  const blocked = ['BlockPublicAcls', 'BlockPublicPolicy', 'IgnorePublicAcls', 'RestrictPublicBuckets'].every(
    (key) => block[key] === true,
  );
  const allows = policy.filter((statement) => statement.Effect === 'Allow');
  const exposure = [
    blocked ? 'all public access blocked' : 'public access NOT fully blocked',
    tls ? `TLS only${tls12 ? ' (1.2 or later)' : ''}` : 'plain HTTP allowed',
    allows.length > 0 ? `bucket policy: ${renderPolicy(allows)}` : 'no grant in the bucket policy',
  ];
  return {
    type: 'S3 bucket',
    encryption: `${encryption}${tls ? '; in transit TLS' : ''}`,
    logging: logging.join('; '),
    retention: retention.join('; '),
    exposure: exposure.join('; '),
  };
};

interface TableProperties {
  TableName: string;
  SSESpecification: { SSEEnabled?: boolean; KMSMasterKeyId?: Json };
  PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled?: boolean; RecoveryPeriodInDays?: number };
  TimeToLiveSpecification: { Enabled?: boolean; AttributeName?: string };
  DeletionProtectionEnabled: boolean;
  ResourcePolicy: { PolicyDocument: Required<PolicyDocument> };
}

export const describeTable: DataDescriber = (_view, _id, resource) => {
  const props = propertiesOf<TableProperties>(resource);
  const sse = props.SSESpecification;
  const recovery = props.PointInTimeRecoverySpecification;
  return {
    type: `DynamoDB table \`${props.TableName ?? ''}\``,
    encryption: !sse?.SSEEnabled
      ? "DynamoDB's AWS owned key"
      : sse.KMSMasterKeyId
        ? `KMS, ${renderValue(sse.KMSMasterKeyId)}`
        : 'KMS, AWS managed key aws/dynamodb',
    logging: 'item reads and writes not logged by the stack; table management calls in CloudTrail',
    retention: [
      recovery?.PointInTimeRecoveryEnabled
        ? `point-in-time recovery (${recovery.RecoveryPeriodInDays ?? 35} days)`
        : 'no point-in-time recovery',
      props.TimeToLiveSpecification?.Enabled ? `TTL on \`${props.TimeToLiveSpecification.AttributeName}\`` : 'no TTL',
      props.DeletionProtectionEnabled ? 'deletion protection' : 'no deletion protection',
      deletion(resource),
    ].join('; '),
    exposure: props.ResourcePolicy
      ? `resource policy: ${renderPolicy(props.ResourcePolicy.PolicyDocument.Statement)}`
      : 'no resource policy: roles of this account only',
  };
};

interface LogGroupProperties {
  KmsKeyId: Json;
  RetentionInDays: number;
}

export const describeLogGroup: DataDescriber = (view, id, resource) => {
  const props = propertiesOf<LogGroupProperties>(resource);
  const writers = Object.entries(view.resources)
    .filter(
      ([, candidate]) =>
        (candidate.Type === 'AWS::Lambda::Function' &&
          referencedIds(candidate.Properties?.LoggingConfig).includes(id)) ||
        (candidate.Type === 'AWS::ApiGatewayV2::Stage' &&
          referencedIds(candidate.Properties?.AccessLogSettings).includes(id)),
    )
    .map(([writer]) => writer);
  return {
    type: 'CloudWatch log group',
    encryption: props.KmsKeyId ? `KMS, ${renderValue(props.KmsKeyId)}` : "CloudWatch Logs' service-managed key",
    logging: writers.length > 0 ? `receives the logs of ${writers.join(', ')}` : '–',
    retention: [
      props.RetentionInDays ? `events kept ${props.RetentionInDays} days` : 'events never expire',
      deletion(resource),
    ].join('; '),
    exposure: 'no resource policy: roles of this account only',
  };
};

interface KeyProperties {
  KeySpec: string;
  EnableKeyRotation: boolean;
  PendingWindowInDays: number;
  KeyPolicy: PolicyDocument;
}

export const describeKey: DataDescriber = (view, id, resource) => {
  const props = propertiesOf<KeyProperties>(resource);
  // A policy grants the key and a rule watches it (the disabled-key notices): neither is encrypted with it.
  const notEncrypted = new Set(['AWS::IAM::Policy', 'AWS::Events::Rule']);
  const users = Object.entries(view.resources)
    .filter(
      ([other, candidate]) =>
        other !== id && !notEncrypted.has(candidate.Type) && referencedIds(candidate.Properties).includes(id),
    )
    .map(([user]) => user);
  return {
    type: `KMS key (${props.KeySpec ?? 'symmetric'})`,
    encryption: `${props.EnableKeyRotation ? 'rotated yearly' : 'NOT rotated'}; encrypts ${users.join(', ') || 'nothing in this stack'}`,
    logging: 'every use recorded by CloudTrail',
    retention: [deletion(resource), props.PendingWindowInDays ? `${props.PendingWindowInDays}-day deletion window` : '']
      .filter(Boolean)
      .join('; '),
    exposure: `key policy: ${renderPolicy(props.KeyPolicy?.Statement ?? [])}`,
  };
};

export const describeTopic: DataDescriber = (view, id, resource) => {
  const props = propertiesOf<{ KmsMasterKeyId: Json }>(resource);
  const subscriptions = Object.values(view.resources).filter(
    (candidate) =>
      candidate.Type === 'AWS::SNS::Subscription' && referencedIds(candidate.Properties?.TopicArn).includes(id),
  );
  return {
    type: 'SNS topic',
    encryption: props.KmsMasterKeyId ? `KMS, ${renderValue(props.KmsMasterKeyId)}` : 'not encrypted at rest',
    logging:
      subscriptions.length > 0
        ? `subscriptions: ${subscriptions.map((s) => renderValue(s.Properties?.Protocol)).join(', ')}`
        : 'no subscription',
    retention: `SNS keeps no message once delivered; ${deletion(resource)}`,
    exposure: `topic policy: ${renderPolicy(policiesOf(view, 'AWS::SNS::TopicPolicy', 'Topics', id)) || 'none'}`,
  };
};

export const describeSecret: DataDescriber = (view, id, resource) => {
  const props = propertiesOf<{ KmsKeyId: Json }>(resource);
  const rotated = Object.values(view.resources).some(
    (candidate) =>
      candidate.Type === 'AWS::SecretsManager::RotationSchedule' && referencedIds(candidate.Properties).includes(id),
  );
  return {
    type: 'Secrets Manager secret',
    encryption: props.KmsKeyId ? `KMS, ${renderValue(props.KmsKeyId)}` : 'KMS, AWS managed key aws/secretsmanager',
    logging: 'reads recorded by CloudTrail',
    retention: `${rotated ? 'rotated' : 'not rotated automatically'}; ${deletion(resource)}`,
    exposure: 'no resource policy: roles of this account only',
  };
};

/** The stores, by resource type, in the order the report lists them. */
export const storeDescribers: Readonly<Record<string, DataDescriber>> = {
  'AWS::S3::Bucket': describeBucket,
  'AWS::DynamoDB::Table': describeTable,
  'AWS::Logs::LogGroup': describeLogGroup,
  'AWS::KMS::Key': describeKey,
  'AWS::SNS::Topic': describeTopic,
  'AWS::SecretsManager::Secret': describeSecret,
};
