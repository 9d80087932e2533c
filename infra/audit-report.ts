/**
 * `cdk.out/audit-report.md`, written after every synth from what the synth produced: the
 * templates, their construct paths (the stacks' metadata) and the rule packs' validation report.
 * Nothing in it is typed by hand, so it cannot drift from what `cdk deploy` would submit.
 *
 * It also finds stale acknowledgements: an acknowledgement of AwsSolutions, Serverless or Control
 * Tower that matched no finding in this synth. The app entry fails the synth on one, and so do the
 * tests: an accepted finding's reason never outlives the finding.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return --
   The templates are CloudFormation's untyped JSON, one schema per resource type; this file reads a
   few properties of each with optional chaining, and test/infra/audit-report.test.ts checks what it makes of them. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CloudAssembly, CloudFormationStackArtifact } from 'aws-cdk-lib/cx-api';
import type { EvaluatedNagPack, RuleEvaluation } from './compliance-checks';
import { controlTowerControls, controlTowerPluginName } from './control-tower-checks';

export const auditReportFileName = 'audit-report.md';

/** The rule packs whose acknowledgements are checked for staleness (CDK's own warnings are not). */
export const rulePackNames = ['AwsSolutions', 'Serverless', controlTowerPluginName] as const;

export interface AuditInput {
  /** What `app.synth()` returned. */
  readonly assembly: CloudAssembly;
  /** The nag packs as registered (infra/compliance-checks.ts): what each rule found, to say what passed. */
  readonly nagPacks?: readonly EvaluatedNagPack[];
}

/** A finding a rule pack reported and someone accepted, with the reason. */
export interface AcceptedFinding {
  readonly pack: string;
  readonly rule: string;
  /** Construct paths of the resources, without the leading `/`. */
  readonly resources: readonly string[];
  readonly reason: string;
  readonly acknowledgedAt: string;
}

/** An acknowledgement in the construct tree that matched no finding. */
export interface StaleAcknowledgement {
  readonly id: string;
  readonly path: string;
  readonly reason: string;
}

export interface AuditReport {
  readonly markdown: string;
  readonly accepted: readonly AcceptedFinding[];
  /** Findings nobody accepted (the synth fails on them before a report is written, but a test may ask). */
  readonly open: ReadonlyArray<{ readonly pack: string; readonly rule: string; readonly resources: readonly string[] }>;
  readonly stale: readonly StaleAcknowledgement[];
  /** The product's own synth warnings about the chosen context (e.g. no senderDomain): shown, not findings. */
  readonly advice: ReadonlyArray<{ readonly rule: string; readonly resources: readonly string[] }>;
}

/**
 * Warnings the product itself adds (ids `first100days:…`, e.g. infra/constructs/mail.ts) advise on
 * the chosen context rather than flag a control: `cdk synth` still prints them, and the report
 * lists them apart, so they neither count as open findings nor need an acknowledgement.
 */
const productAdvicePrefix = 'Annotation::first100days:';

// ---------------------------------------------------------------- the synthesized templates

type Json = unknown;
interface Resource {
  readonly Type: string;
  readonly Properties?: Record<string, any>;
  readonly DeletionPolicy?: string;
  readonly Condition?: string;
}
interface StackView {
  readonly name: string;
  readonly environment: string;
  readonly resources: Record<string, Resource>;
  /** Logical ID → construct path (without the leading `/`). */
  readonly paths: Map<string, string>;
}

function stackView(artifact: CloudFormationStackArtifact): StackView {
  const paths = new Map<string, string>();
  for (const entry of artifact.findMetadataByType('aws:cdk:logicalId')) {
    // A logical ID entry's data is the ID itself.
    if (typeof entry.data === 'string') paths.set(entry.data, entry.path.replace(/^\//, ''));
  }
  const { account, region } = artifact.environment;
  const environment =
    account === 'unknown-account' && region === 'unknown-region'
      ? 'environment-agnostic: the account and region of whoever deploys it'
      : `account ${account}, region ${region}`;
  return {
    name: artifact.stackName,
    environment,
    resources: (artifact.template as { Resources?: Record<string, Resource> }).Resources ?? {},
    paths,
  };
}

/** An intrinsic as cdk-nag writes it: `<Bucket.Arn>`, `<AWS::AccountId>`; strings as they are. */
export function renderValue(value: Json): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(renderValue).join(', ');
  if (value && typeof value === 'object') {
    const record = value as Record<string, Json>;
    if ('Ref' in record) return `<${String(record.Ref)}>`;
    if ('Fn::GetAtt' in record) {
      const [id, attribute] = record['Fn::GetAtt'] as [string, string];
      return `<${id}.${attribute}>`;
    }
    if ('Fn::Join' in record) {
      const [separator, parts] = record['Fn::Join'] as [string, Json[]];
      return parts.map(renderValue).join(separator);
    }
    if ('Fn::Select' in record) {
      const [index, list] = record['Fn::Select'] as [number, Json];
      return `select(${index}, ${renderValue(list)})`;
    }
    if ('Fn::Split' in record) {
      const [separator, source] = record['Fn::Split'] as [string, Json];
      return `split('${separator}', ${renderValue(source)})`;
    }
    if ('Fn::Sub' in record) return renderValue(asList(record['Fn::Sub'])[0]).replace(/\$\{([^}]+)\}/g, '<$1>');
    if ('Fn::GetStackOutput' in record) return '<output of the web ACL stack>';
  }
  return JSON.stringify(value);
}

/** Markdown table cells: no pipes or line breaks inside. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '_None._\n';
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
  ].join('\n');
}

function referencedIds(value: Json): string[] {
  const text = JSON.stringify(value ?? null);
  return [...text.matchAll(/"(?:Ref|Fn::GetAtt)":\s*(?:"([A-Za-z0-9]+)"|\["([A-Za-z0-9]+)")/g)].map(
    (match) => match[1] ?? match[2],
  );
}

const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

interface Statement {
  readonly Effect: string;
  readonly Action?: string | string[];
  readonly Resource?: Json;
  readonly Principal?: Json;
  readonly Condition?: Record<string, Record<string, Json>>;
}

function renderCondition(condition: Statement['Condition']): string {
  if (!condition) return '–';
  return Object.entries(condition)
    .flatMap(([operator, keys]) =>
      Object.entries(keys).map(([key, value]) => `${key} ${operator} ${asList(value).map(renderValue).join(' or ')}`),
    )
    .join('; ');
}

function renderPrincipal(principal: Json): string {
  if (principal === '*') return 'anyone (*)';
  if (principal && typeof principal === 'object') {
    return Object.entries(principal as Record<string, Json>)
      .map(([kind, value]) => `${kind}: ${asList(value).map(renderValue).join(', ')}`)
      .join('; ');
  }
  return renderValue(principal);
}

/** Resource-policy statements in one line each: who may do what, under which condition. */
function renderPolicy(statements: readonly Statement[]): string {
  return statements
    .map(
      (statement) =>
        `${statement.Effect} ${renderPrincipal(statement.Principal)}: ${asList(statement.Action).join(', ')}` +
        (statement.Condition ? ` (${renderCondition(statement.Condition)})` : ''),
    )
    .join('; ');
}

const deletion = (resource: Resource) =>
  resource.DeletionPolicy === 'Retain' || resource.DeletionPolicy === 'RetainExceptOnCreate'
    ? 'kept when the stack is deleted'
    : 'deleted with the stack';

// ---------------------------------------------------------------- data: stores and flows

interface DataRow {
  readonly type: string;
  readonly encryption: string;
  readonly logging: string;
  readonly retention: string;
  readonly exposure: string;
}

function policiesOf(view: StackView, policyType: string, targetKey: string, logicalId: string): Statement[] {
  return Object.values(view.resources)
    .filter(
      (resource) =>
        resource.Type === policyType &&
        asList(resource.Properties?.[targetKey]).some((target) => referencedIds(target).includes(logicalId)),
    )
    .flatMap((resource) => (resource.Properties?.PolicyDocument?.Statement ?? []) as Statement[]);
}

function describeBucket(view: StackView, id: string, resource: Resource): DataRow {
  const props = resource.Properties ?? {};
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
  const rules = (props.LifecycleConfiguration?.Rules ?? []) as Array<Record<string, any>>;
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
}

function describeTable(_view: StackView, _id: string, resource: Resource): DataRow {
  const props = resource.Properties ?? {};
  const sse = props.SSESpecification;
  return {
    type: `DynamoDB table \`${props.TableName ?? ''}\``,
    encryption: !sse?.SSEEnabled
      ? "DynamoDB's AWS owned key"
      : sse.KMSMasterKeyId
        ? `KMS, ${renderValue(sse.KMSMasterKeyId)}`
        : 'KMS, AWS managed key aws/dynamodb',
    logging: 'item reads and writes not logged by the stack; table management calls in CloudTrail',
    retention: [
      props.PointInTimeRecoverySpecification?.PointInTimeRecoveryEnabled
        ? `point-in-time recovery (${props.PointInTimeRecoverySpecification.RecoveryPeriodInDays ?? 35} days)`
        : 'no point-in-time recovery',
      props.TimeToLiveSpecification?.Enabled ? `TTL on \`${props.TimeToLiveSpecification.AttributeName}\`` : 'no TTL',
      props.DeletionProtectionEnabled ? 'deletion protection' : 'no deletion protection',
      deletion(resource),
    ].join('; '),
    exposure: props.ResourcePolicy
      ? `resource policy: ${renderPolicy(props.ResourcePolicy.PolicyDocument.Statement)}`
      : 'no resource policy: roles of this account only',
  };
}

function describeLogGroup(view: StackView, id: string, resource: Resource): DataRow {
  const props = resource.Properties ?? {};
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
}

function describeKey(view: StackView, id: string, resource: Resource): DataRow {
  const props = resource.Properties ?? {};
  const users = Object.entries(view.resources)
    .filter(
      ([other, candidate]) =>
        other !== id && candidate.Type !== 'AWS::IAM::Policy' && referencedIds(candidate.Properties).includes(id),
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
}

function describeTopic(view: StackView, id: string, resource: Resource): DataRow {
  const props = resource.Properties ?? {};
  const subscriptions = Object.values(view.resources).filter(
    (candidate) =>
      candidate.Type === 'AWS::SNS::Subscription' && referencedIds(candidate.Properties?.TopicArn).includes(id),
  );
  return {
    type: 'SNS topic',
    encryption: props.KmsMasterKeyId ? `KMS, ${renderValue(props.KmsMasterKeyId)}` : 'not encrypted at rest',
    logging:
      subscriptions.length > 0
        ? `subscriptions: ${subscriptions.map((s) => s.Properties?.Protocol).join(', ')}`
        : 'no subscription',
    retention: `SNS keeps no message once delivered; ${deletion(resource)}`,
    exposure: `topic policy: ${renderPolicy(policiesOf(view, 'AWS::SNS::TopicPolicy', 'Topics', id)) || 'none'}`,
  };
}

function describeSecret(view: StackView, id: string, resource: Resource): DataRow {
  const props = resource.Properties ?? {};
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
}

function describeFunction(view: StackView, id: string, resource: Resource): DataRow {
  const props = resource.Properties ?? {};
  const permissions = Object.values(view.resources).filter(
    (candidate) =>
      candidate.Type === 'AWS::Lambda::Permission' && referencedIds(candidate.Properties?.FunctionName).includes(id),
  );
  const invokers = [
    ...new Set(
      permissions.map(
        (permission) =>
          `${renderValue(permission.Properties?.Principal)}${permission.Properties?.SourceAccount ? ` (account ${renderValue(permission.Properties.SourceAccount)})` : ''}${permission.Properties?.SourceArn ? ` from ${renderValue(permission.Properties.SourceArn)}` : ''}`,
      ),
    ),
  ];
  return {
    type: `Lambda function (${props.Runtime ?? ''})`,
    encryption: props.KmsKeyArn
      ? `environment: KMS, ${renderValue(props.KmsKeyArn)}`
      : 'environment: AWS managed key aws/lambda',
    logging: [
      props.LoggingConfig?.LogGroup
        ? `logs → ${renderValue(props.LoggingConfig.LogGroup)}`
        : 'logs → default log group',
      props.TracingConfig?.Mode === 'Active' ? 'X-Ray active tracing' : '',
    ]
      .filter(Boolean)
      .join('; '),
    retention: `holds no data between invocations; ${deletion(resource)}`,
    exposure:
      invokers.length > 0
        ? `may be invoked by ${invokers.join('; ')}`
        : 'no resource policy: invoked only by CloudFormation or this account',
  };
}

function describeDistribution(_view: StackView, _id: string, resource: Resource): DataRow {
  const config = resource.Properties?.DistributionConfig ?? {};
  const behaviours = [config.DefaultCacheBehavior, ...(config.CacheBehaviors ?? [])].filter(Boolean) as Array<
    Record<string, any>
  >;
  const origins = (config.Origins ?? []) as Array<Record<string, any>>;
  return {
    type: 'CloudFront distribution',
    encryption: [
      `viewers: ${behaviours.map((b) => `${b.PathPattern ?? 'default'} ${b.ViewerProtocolPolicy}`).join(', ')}`,
      `minimum TLS ${config.ViewerCertificate?.MinimumProtocolVersion ?? "TLSv1 (CloudFront's default certificate)"}`,
      ...origins
        .filter((origin) => origin.CustomOriginConfig)
        .map(
          (origin) =>
            `to origin ${origin.Id}: ${origin.CustomOriginConfig.OriginProtocolPolicy}, ${asList(origin.CustomOriginConfig.OriginSSLProtocols).join(', ')}`,
        ),
    ].join('; '),
    logging: config.Logging
      ? `standard logs → ${renderValue(config.Logging.Bucket)}, prefix \`${config.Logging.Prefix ?? ''}\``
      : 'no standard logs',
    retention: `caches copies at the edge; ${deletion(resource)}`,
    exposure: [
      'public: serves anyone on the internet',
      config.WebACLId ? `AWS WAF web ACL ${renderValue(config.WebACLId)}` : 'no AWS WAF web ACL',
      ...origins
        .filter((origin) => origin.S3OriginConfig)
        .map((origin) => `S3 origin ${origin.Id} through origin access control`),
    ].join('; '),
  };
}

function describeHttpApi(view: StackView, id: string, resource: Resource): DataRow {
  const related = (type: string) =>
    Object.values(view.resources).filter(
      (candidate) => candidate.Type === type && referencedIds(candidate.Properties?.ApiId).includes(id),
    );
  const stages = related('AWS::ApiGatewayV2::Stage');
  const routes = related('AWS::ApiGatewayV2::Route');
  return {
    type: `API Gateway ${resource.Properties?.ProtocolType ?? ''} API`,
    encryption: 'HTTPS only (API Gateway)',
    logging: stages
      .map((stage) => {
        const settings = stage.Properties?.AccessLogSettings;
        if (!settings) return `stage ${stage.Properties?.StageName}: no access logs`;
        const fields = (() => {
          try {
            return Object.keys(JSON.parse(settings.Format as string)).join(', ');
          } catch {
            return 'custom format';
          }
        })();
        return `stage ${stage.Properties?.StageName}: access logs → ${renderValue(settings.DestinationArn)} (${fields})`;
      })
      .join('; '),
    retention: `holds no data; ${deletion(resource)}`,
    exposure: [
      'public endpoint',
      ...stages.map((stage) => {
        const limits = stage.Properties?.DefaultRouteSettings ?? {};
        return `stage ${stage.Properties?.StageName} throttled at ${limits.ThrottlingRateLimit ?? '–'} requests a second (burst ${limits.ThrottlingBurstLimit ?? '–'})`;
      }),
      `routes: ${routes.map((route) => `${route.Properties?.RouteKey} (authorization ${route.Properties?.AuthorizationType ?? 'NONE'})`).join(', ')}`,
    ].join('; '),
  };
}

function describeConfigurationSet(view: StackView, id: string, resource: Resource): DataRow {
  const props = resource.Properties ?? {};
  const destinations = Object.values(view.resources).filter(
    (candidate) =>
      candidate.Type === 'AWS::SES::ConfigurationSetEventDestination' &&
      referencedIds(candidate.Properties?.ConfigurationSetName).includes(id),
  );
  return {
    type: 'SES configuration set',
    encryption: `TLS to the recipient's server: ${props.DeliveryOptions?.TlsPolicy ?? 'OPTIONAL'} (when it offers it)`,
    logging: destinations
      .map(
        (destination) =>
          `${asList(destination.Properties?.EventDestination?.MatchingEventTypes).join(', ')} → CloudWatch`,
      )
      .join('; '),
    retention: [
      props.SuppressionOptions
        ? `suppression list: ${asList(props.SuppressionOptions.SuppressedReasons).join(', ')}`
        : '',
      props.ReputationOptions?.ReputationMetricsEnabled ? 'reputation metrics' : '',
      deletion(resource),
    ]
      .filter(Boolean)
      .join('; '),
    exposure: 'sends only what the send role sends (ses:SendEmail on this set and the identity)',
  };
}

const dataDescribers: Record<string, (view: StackView, id: string, resource: Resource) => DataRow> = {
  'AWS::S3::Bucket': describeBucket,
  'AWS::DynamoDB::Table': describeTable,
  'AWS::Logs::LogGroup': describeLogGroup,
  'AWS::KMS::Key': describeKey,
  'AWS::SNS::Topic': describeTopic,
  'AWS::SecretsManager::Secret': describeSecret,
  'AWS::Lambda::Function': describeFunction,
  'AWS::CloudFront::Distribution': describeDistribution,
  'AWS::ApiGatewayV2::Api': describeHttpApi,
  'AWS::SES::ConfigurationSet': describeConfigurationSet,
};

function dataSection(views: readonly StackView[]): string {
  const rows = views.flatMap((view) =>
    Object.keys(dataDescribers).flatMap((type) =>
      Object.entries(view.resources)
        .filter(([, resource]) => resource.Type === type)
        .map(([id, resource]) => {
          const row = dataDescribers[type](view, id, resource);
          return [
            `\`${id}\``,
            row.type,
            `\`${view.paths.get(id) ?? ''}\``,
            row.encryption,
            row.logging,
            row.retention,
            row.exposure,
          ];
        }),
    ),
  );
  return [
    '## What holds or moves data, and how it is protected',
    '',
    'Buckets, tables, log groups, KMS keys, topics, secrets, functions, the distribution, the API and the SES configuration set, read from the templates.',
    '',
    table(
      [
        'resource',
        'kind',
        'construct path',
        'encryption',
        'logging',
        'retention, and on stack deletion',
        'public exposure',
      ],
      rows,
    ),
  ].join('\n');
}

// ---------------------------------------------------------------- IAM

/** Every (action, resource, condition) a role's policies allow or deny. */
function roleGrants(
  view: StackView,
  roleId: string,
): Array<{ effect: string; action: string; resources: string[]; condition: string; policy: string }> {
  const role = view.resources[roleId];
  const documents: Array<[string, { Statement: Statement[] }]> = [
    ...(
      (role.Properties?.Policies ?? []) as Array<{ PolicyName: string; PolicyDocument: { Statement: Statement[] } }>
    ).map((inline) => [`inline ${inline.PolicyName}`, inline.PolicyDocument] as [string, { Statement: Statement[] }]),
    ...Object.entries(view.resources)
      .filter(
        ([, candidate]) =>
          (candidate.Type === 'AWS::IAM::Policy' || candidate.Type === 'AWS::IAM::ManagedPolicy') &&
          asList(candidate.Properties?.Roles).some((target) => referencedIds(target).includes(roleId)),
      )
      .map(
        ([policyId, policy]) => [policyId, policy.Properties!.PolicyDocument] as [string, { Statement: Statement[] }],
      ),
  ];
  return documents.flatMap(([policy, document]) =>
    asList(document.Statement).flatMap((statement) =>
      asList(statement.Action).map((action) => ({
        effect: statement.Effect,
        action,
        resources: asList(statement.Resource).map(renderValue),
        condition: renderCondition(statement.Condition),
        policy,
      })),
    ),
  );
}

function iamSection(views: readonly StackView[]): string {
  const parts = ['## IAM: what each role may do', ''];
  for (const view of views) {
    for (const [roleId, role] of Object.entries(view.resources).filter(
      ([, resource]) => resource.Type === 'AWS::IAM::Role',
    )) {
      const assumedBy = asList(role.Properties?.AssumeRolePolicyDocument?.Statement as Statement[])
        .map((statement) => renderPrincipal(statement.Principal))
        .join('; ');
      const managed = asList(role.Properties?.ManagedPolicyArns).map(renderValue);
      parts.push(
        `### \`${roleId}\``,
        '',
        `Construct path \`${view.paths.get(roleId) ?? ''}\`; assumed by ${assumedBy}; AWS managed policies: ${managed.length > 0 ? managed.join(', ') : 'none'}.`,
        '',
        table(
          ['effect', 'action', 'resources', 'condition', 'policy'],
          roleGrants(view, roleId).map((grant) => [
            grant.effect,
            `\`${grant.action}\``,
            grant.resources.join(', '),
            grant.condition,
            `\`${grant.policy}\``,
          ]),
        ),
      );
    }
  }
  return parts.join('\n');
}

// ---------------------------------------------------------------- rule packs

interface ValidationReportFile {
  pluginReports: Array<{
    pluginName: string;
    pluginVersion?: string;
    violations: Array<{ ruleName: string; violatingConstructs: Array<{ constructPath: string }> }>;
    suppressedViolations?: Array<{
      ruleName: string;
      reason?: string;
      acknowledgedId: string;
      acknowledgedAt?: string;
      violatingConstructs: Array<{ constructPath: string }>;
    }>;
  }>;
}

function readValidationReport(directory: string): ValidationReportFile {
  const file = path.join(directory, 'validation-report.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ValidationReportFile) : { pluginReports: [] };
}

const baseRule = (rule: string) => rule.replace(/\[.*\]$/, '');

/** One row per finding and reason, with every resource it was accepted on. */
function acceptedTable(accepted: readonly AcceptedFinding[]): string {
  const rows = new Map<string, { rule: string; reason: string; resources: string[] }>();
  for (const finding of accepted) {
    const key = `${finding.rule}\n${finding.reason}`;
    const row = rows.get(key) ?? { rule: finding.rule, reason: finding.reason, resources: [] };
    row.resources.push(...finding.resources);
    rows.set(key, row);
  }
  return table(
    ['finding', 'resources', 'reason'],
    [...rows.values()]
      .sort((a, b) => a.rule.localeCompare(b.rule, 'en', { numeric: true }))
      .map((row) => [`\`${row.rule}\``, row.resources.map((resource) => `\`${resource}\``).join(', '), row.reason]),
  );
}

function nagPackSection(
  pack: EvaluatedNagPack | undefined,
  name: string,
  accepted: readonly AcceptedFinding[],
  version?: string,
): string {
  const evaluations: readonly RuleEvaluation[] = pack?.evaluations ?? [];
  const byRule = new Map<string, RuleEvaluation[]>();
  for (const evaluation of evaluations)
    byRule.set(evaluation.rule, [...(byRule.get(evaluation.rule) ?? []), evaluation]);
  const acceptedByRule = (rule: string) =>
    new Set(accepted.filter((finding) => baseRule(finding.rule) === rule).flatMap((f) => f.resources));
  const rows = [...byRule.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, list]) => {
      const resources = new Set(list.map((evaluation) => evaluation.path));
      const failing = new Set(list.filter((evaluation) => !evaluation.compliant).map((evaluation) => evaluation.path));
      return [
        `\`${rule}\``,
        String(resources.size),
        String(resources.size - failing.size),
        String(acceptedByRule(rule).size),
      ];
    });
  const passedEverywhere = rows.filter((row) => row[3] === '0').length;
  return [
    `### ${name}${version ? ` (cdk-nag ${version})` : ''}`,
    '',
    evaluations.length > 0
      ? `${byRule.size} rules looked at the resources below; ${passedEverywhere} passed on every resource they apply to, and the others' findings are all accepted (below).`
      : 'What each rule found per resource was not recorded in this synth.',
    '',
    table(['rule', 'resources checked', 'passed', 'accepted findings'], rows),
    'Accepted findings:',
    '',
    acceptedTable(accepted),
  ].join('\n');
}

function controlTowerSection(
  views: readonly StackView[],
  accepted: readonly AcceptedFinding[],
  version?: string,
): string {
  const present = new Map<string, number>();
  for (const view of views)
    for (const resource of Object.values(view.resources))
      present.set(resource.Type, (present.get(resource.Type) ?? 0) + 1);
  const rows = controlTowerControls()
    .filter((control) => control.resourceTypes.some((type) => present.has(type)))
    .sort((a, b) => a.control.localeCompare(b.control, 'en', { numeric: true }))
    .map((control) => {
      const checked = control.resourceTypes.reduce((sum, type) => sum + (present.get(type) ?? 0), 0);
      const acceptedOn = new Set(
        accepted.filter((finding) => finding.rule === control.control).flatMap((f) => f.resources),
      ).size;
      return [
        `\`${control.control}\``,
        `\`${control.rule}\``,
        control.title,
        String(checked),
        String(checked - acceptedOn),
        String(acceptedOn),
      ];
    });
  return [
    `### Control Tower proactive controls${version ? ` (@cdklabs/cdk-validator-cfnguard ${version})` : ''}`,
    '',
    `${controlTowerControls().length} controls run on every template; ${rows.length} apply to resource types these templates contain. Every resource passes unless its finding is accepted below (infra/control-tower-exceptions.ts).`,
    '',
    table(['control', 'cfn-guard rule', 'requires', 'resources checked', 'passed', 'accepted'], rows),
    'Accepted findings:',
    '',
    acceptedTable(accepted),
  ].join('\n');
}

// ---------------------------------------------------------------- the report

export function buildAuditReport({ assembly, nagPacks = [] }: AuditInput): AuditReport {
  const views = assembly.stacks.map(stackView);
  const validation = readValidationReport(assembly.directory);

  const accepted: AcceptedFinding[] = [];
  const open: Array<{ pack: string; rule: string; resources: string[] }> = [];
  const advice: Array<{ rule: string; resources: string[] }> = [];
  for (const report of validation.pluginReports) {
    for (const violation of report.violations) {
      if (violation.ruleName.startsWith(productAdvicePrefix)) {
        const rule = violation.ruleName.slice('Annotation::'.length);
        advice.push({ rule, resources: violation.violatingConstructs.map((c) => c.constructPath) });
        continue;
      }
      open.push({
        pack: report.pluginName,
        rule: violation.ruleName,
        resources: violation.violatingConstructs.map((c) => c.constructPath),
      });
    }
    for (const suppressed of report.suppressedViolations ?? []) {
      accepted.push({
        pack: report.pluginName,
        rule: suppressed.ruleName,
        resources: suppressed.violatingConstructs.map((c) => c.constructPath),
        reason: suppressed.reason ?? '',
        acknowledgedAt: (suppressed.acknowledgedAt ?? '').replace(/^\//, ''),
      });
    }
  }

  // Every acknowledgement of a rule pack in the construct tree must have matched a finding.
  const stale: StaleAcknowledgement[] = [];
  const seen = new Set<string>();
  for (const artifact of assembly.stacks) {
    for (const entry of artifact.findMetadataByType('aws:cdk:acknowledged-rules')) {
      for (const [id, reason] of Object.entries(entry.data as unknown as Record<string, string>)) {
        const where = entry.path.replace(/^\//, '');
        const key = `${id}@${where}`;
        if (seen.has(key) || !rulePackNames.some((pack) => id.startsWith(`${pack}::`))) continue;
        seen.add(key);
        const matched = validation.pluginReports.some((report) =>
          (report.suppressedViolations ?? []).some(
            (suppressed) =>
              suppressed.acknowledgedId === id && (suppressed.acknowledgedAt ?? '').replace(/^\//, '') === where,
          ),
        );
        if (!matched) stale.push({ id, path: where, reason });
      }
    }
  }

  const packVersion = (name: string) =>
    validation.pluginReports.find((report) => report.pluginName === name)?.pluginVersion;
  const acceptedOf = (pack: string) => accepted.filter((finding) => finding.pack === pack);
  const markdown = [
    '# Audit report',
    '',
    `Written by every synth from the templates in this folder (\`infra/audit-report.ts\`): do not edit. Stacks: ${views
      .map((view) => `\`${view.name}\` (${view.environment})`)
      .join(', ')}.`,
    '',
    dataSection(views),
    iamSection(views),
    '## Rule packs',
    '',
    'Each pack runs on every synth (`infra/compliance-checks.ts`); a finding nobody accepted fails it. Accepted findings keep their reason here, in `validation-report.json` and, for the nag packs, in the template (`Metadata.cdk_nag`).',
    '',
    nagPackSection(
      nagPacks.find((pack) => pack.name === 'AwsSolutions'),
      'AwsSolutions',
      acceptedOf('AwsSolutions'),
      packVersion('AwsSolutions'),
    ),
    nagPackSection(
      nagPacks.find((pack) => pack.name === 'Serverless'),
      'Serverless',
      acceptedOf('Serverless'),
      packVersion('Serverless'),
    ),
    controlTowerSection(views, acceptedOf(controlTowerPluginName), packVersion(controlTowerPluginName)),
    '## Open findings and stale acknowledgements',
    '',
    table(
      ['kind', 'rule', 'where'],
      [
        ...open.map((finding) => ['open finding', `${finding.pack}: ${finding.rule}`, finding.resources.join(', ')]),
        ...stale.map((entry) => ['stale acknowledgement (no finding)', entry.id, entry.path]),
      ],
    ),
    '## Advice on the chosen context',
    '',
    table(
      ['warning', 'where'],
      advice.map((entry) => [entry.rule, entry.resources.join(', ')]),
    ),
  ].join('\n');

  return { markdown, accepted, open, stale, advice };
}

/** Builds the report and writes it beside the templates. */
export function writeAuditReport(input: AuditInput): AuditReport {
  const report = buildAuditReport(input);
  writeFileSync(path.join(input.assembly.directory, auditReportFileName), report.markdown);
  return report;
}
