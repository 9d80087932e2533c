/**
 * Stack-wide rules and wiring that no single construct's test can see, on the whole product
 * (synthesized once); each construct itself is tested in test/infra/constructs/.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { functionResourcePrefix } from './support/function-ids';
import { functionList } from '../../core/api/catalogue/functions';
import { cheatSheetFileName } from '../../core/content/cheat-sheet';
import { alarmsOf } from './support/alarms';
import { exampleSender, fixtures, resourceByPrefix, synthTemplate } from './support/synth';

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
    policy: /^(Api|EventFunctions|SendQueue)\w+RoleDefaultPolicy/,
    actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
    reason: 'Active tracing: X-Ray has no resource-level permissions for sending segments.',
  },
  {
    policy: /^(ApiSendCheatSheet|ApiSubmitForm|SendQueue)\w+RoleDefaultPolicy/,
    actions: ['ses:GetAccount'],
    reason: "SES's send quota (the pace's rate): GetAccount has no resource-level permissions.",
  },
];

/** The whole product, synthesized once for this file. */
const template = synthTemplate();

/** The catalogue's functions this synth builds: all but the digest, which needs an author (`authorEmail`). */
const builtFunctions = functionList.filter((fn) => fn.onlyWith === undefined);

describe('the stack', () => {
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

  test('holds no web ACL with -c waf=false (the test default; test/infra/stack-with-waf.test.ts has the default)', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
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

  test("keeps every log group's events at least a year, encrypted with the leads' key (a log may name a request)", () => {
    const keyId = resourceByPrefix(template, 'AWS::KMS::Key', 'LeadsKey').logicalId;
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

  test('encrypts every bucket with S3-managed keys (SSE-S3): the pages, the PDF anyone downloads and the access logs', () => {
    const encryption = Object.fromEntries(
      Object.entries(template.findResources('AWS::S3::Bucket')).map(([id, bucket]) => [
        id.replace(/[0-9A-F]{8}$/, ''),
        bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault,
      ]),
    );
    expect(encryption).toEqual({
      SiteBucket: { SSEAlgorithm: 'AES256' },
      DataCheatSheetBucket: { SSEAlgorithm: 'AES256' },
      DataAccessLogsBucket: { SSEAlgorithm: 'AES256' },
    });
  });
});

describe('a first create CloudFront refuses', () => {
  test('writes nothing to a bucket before the distribution exists: every bucket deployment waits for it, so the rollback can delete the buckets', () => {
    const resources = template.toJSON().Resources as Record<string, { Type: string; DependsOn?: string[] }>;
    const [distribution] = Object.keys(template.findResources('AWS::CloudFront::Distribution'));
    const dependsOn = (id: string, seen = new Set<string>()): Set<string> => {
      for (const next of resources[id].DependsOn ?? []) if (!seen.has(next)) dependsOn(next, seen.add(next));
      return seen;
    };
    const deployments = Object.keys(resources).filter((id) => resources[id].Type === 'Custom::CDKBucketDeployment');
    expect(deployments.length).toBeGreaterThanOrEqual(3);
    for (const id of deployments) expect([id, dependsOn(id).has(distribution)]).toEqual([id, true]);
  });
});

describe('the monitoring of the product', () => {
  test('sends the failures of every function no route invokes, after their retries, to the dead-letter queue', () => {
    const queueId = resourceByPrefix(template, 'AWS::SQS::Queue', 'FailedEventsQueue').logicalId;
    // The queue's functions are invoked by their event source mappings, never asynchronously.
    for (const fn of builtFunctions.filter(
      (candidate) => candidate.trigger.kind !== 'http' && candidate.trigger.kind !== 'queue',
    )) {
      const prefix = functionResourcePrefix(fn, 'Function');
      const functionId = resourceByPrefix(template, 'AWS::Lambda::Function', prefix).logicalId;
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: functionId },
        MaximumRetryAttempts: fn.failedRunRetries,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
      });
    }
  });

  test('has two alarms an objective (a page, a ticket), one for each cause, and no composite alarm', () => {
    const composites = Object.keys(template.findResources('AWS::CloudWatch::CompositeAlarm')).length;
    // The causes: the sender's reputation, the send budget, the event functions' dead letters, the send backlog.
    expect([alarmsOf(template).length, composites]).toEqual([3 * 2 + 4, 0]);
  });

  test("runs the canary every 5 minutes against the site, and the availability objective's page reads its failed runs (its Errors)", () => {
    const canary = resourceByPrefix(template, 'AWS::Lambda::Function', 'EventFunctionsCanaryCanaryFunction');
    const variables = (canary.resource.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(variables.CANARY_SITE_URL)).toContain('DomainName');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: Match.arrayWith([Match.objectLike({ Arn: { 'Fn::GetAtt': [canary.logicalId, 'Arn'] } })]),
    });
    const readers = Object.entries(template.findResources('AWS::CloudWatch::Alarm'))
      .filter(([, alarm]) =>
        (
          (alarm.Properties.Metrics ?? []) as { MetricStat?: { Metric: { MetricName: string; Dimensions: unknown } } }[]
        ).some(
          (query) =>
            query.MetricStat?.Metric.MetricName === 'Errors' &&
            JSON.stringify(query.MetricStat.Metric.Dimensions).includes(canary.logicalId),
        ),
      )
      .map(([, alarm]) => alarm.Properties.AlarmName as string);
    expect(readers).toEqual(['First100DaysSite-SloFastBurn-Availability']);
  });

  test('outputs the console URL of its one dashboard', () => {
    const dashboard = resourceByPrefix(template, 'AWS::CloudWatch::Dashboard', 'MonitoringDashboard');
    const url = JSON.stringify(template.findOutputs('DashboardUrl').DashboardUrl.Value);
    expect(url).toContain('#dashboards/dashboard/');
    expect(url).toContain(`{"Ref":"${dashboard.logicalId}"}`);
  });

  test('pauses sending from the sender-reputation alarm, through the pages topic', () => {
    const topicId = resourceByPrefix(template, 'AWS::SNS::Topic', 'MonitoringAlarmTopic').logicalId;
    const alarmId = Object.entries(template.findResources('AWS::CloudWatch::Alarm')).find(
      ([, alarm]) => alarm.Properties.AlarmName === 'First100DaysSite-SenderReputation',
    )?.[0];
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: topicId },
      FilterPolicy: Match.objectLike({ AlarmName: [{ Ref: alarmId }] }),
    });
    const configurationSetId = resourceByPrefix(template, 'AWS::SES::ConfigurationSet', 'Mail').logicalId;
    const pausePolicy = resourceByPrefix(template, 'AWS::IAM::Policy', 'EventFunctionsPauseSending');
    expect(JSON.stringify(pausePolicy.resource.Properties.PolicyDocument)).toContain(`{"Ref":"${configurationSetId}"}`);
  });
});

describe("the API's wiring in the product", () => {
  const functionOf = (prefix: string) => resourceByPrefix(template, 'AWS::Lambda::Function', prefix).resource;

  test('replaces warm send containers when the PDF changes, and only after the new PDF is in the bucket', () => {
    const pdf = readFileSync(path.join(fixtures.cheatSheetDirectory, cheatSheetFileName));
    const digest = createHash('sha256').update(pdf).digest('hex').slice(0, 16);
    const pdfDeployment = resourceByPrefix(template, 'Custom::CDKBucketDeployment', 'DataCheatSheetDeployment');
    for (const prefix of ['ApiSendCheatSheetSendCheatSheetFunction', 'ApiSubmitFormSubmitFormFunction']) {
      const sender = functionOf(prefix);
      expect((sender.Properties.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
        CHEAT_SHEET_VERSION: digest,
      });
      expect(sender.DependsOn).toContain(pdfDeployment.logicalId);
    }
  });

  test('gives the functions the published limits by default: 3 sends an address a day, 10 a client and 30 a network an hour, 10,000 a day in all; 20 saves a client and 60 a network an hour', () => {
    expect(functionOf('ApiSubmitFormSubmitFormFunction').Properties.Environment).toMatchObject({
      Variables: {
        CHEAT_SHEET_DAILY_LIMIT: '3',
        CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '10',
        CHEAT_SHEET_NETWORK_HOURLY_LIMIT: '30',
        CHEAT_SHEET_DAILY_SEND_BUDGET: '10000',
        CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT: '20',
        CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT: '60',
      },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 32, ThrottlingBurstLimit: 64 },
    });
  });

  test("reserves no Lambda concurrency, which a new account's 10 concurrent executions could not deploy", () => {
    // Lambda keeps at least 100 executions unreserved (PutFunctionConcurrency), so any reservation
    // fails to deploy in an account whose quota is 10; the send queue's mapping caps its sender instead.
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThan(0);
    expect(functions.filter(({ Properties }) => Properties.ReservedConcurrentExecutions !== undefined)).toEqual([]);
  });

  test('asks every JSON send for the proof of work by default: CHEAT_SHEET_CHALLENGE=on for the send, form and challenge functions', () => {
    for (const id of [
      'ApiSendCheatSheetSendCheatSheetFunction',
      'ApiSubmitFormSubmitFormFunction',
      'ApiCheatSheetChallengeCheatSheetChallengeFunction',
    ]) {
      expect(functionOf(id).Properties.Environment).toMatchObject({ Variables: { CHEAT_SHEET_CHALLENGE: 'on' } });
    }
  });

  test('lets no role but those of the functions whose entries grant it touch the limit-counters table', () => {
    const countersArn = JSON.stringify({
      'Fn::GetAtt': [resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataSendQuotaTable').logicalId, 'Arn'],
    });
    const roleIds = builtFunctions
      .filter((fn) => fn.tableAccess.some((access) => access.table === 'limitCounters'))
      .map((fn) => functionResourcePrefix(fn, 'Role'))
      .map((prefix) => resourceByPrefix(template, 'AWS::IAM::Role', prefix).logicalId);
    const policiesOnCounters = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes(countersArn))
      .map((policy) => policy.Properties.Roles);
    const byRole = (roles: unknown) => JSON.stringify(roles);
    expect(policiesOnCounters.map(byRole).sort()).toEqual(roleIds.map((id) => byRole([{ Ref: id }])).sort());
  });
});

describe("the product's one key, the leads'", () => {
  type KeyStatement = { Effect: string; Principal?: unknown; Action: string | string[]; Condition?: unknown };
  const key = () => resourceByPrefix(template, 'AWS::KMS::Key', 'LeadsKey');

  test('is the only KMS key: the tables, the log groups, the failed events and both alarm topics share it', () => {
    template.resourceCountIs('AWS::KMS::Key', 1);
    const arn = { 'Fn::GetAtt': [key().logicalId, 'Arn'] };
    const topics = Object.values(template.findResources('AWS::SNS::Topic'));
    expect(topics).toHaveLength(2);
    for (const topic of topics) expect(topic.Properties.KmsMasterKeyId).toEqual(arn);
    template.hasResourceProperties('AWS::SQS::Queue', {
      KmsMasterKeyId: arn,
      MessageRetentionPeriod: 1209600,
    });
  });

  test('rotates yearly and refuses grants but those AWS services make for a resource', () => {
    const { Properties } = key().resource;
    expect(Properties.EnableKeyRotation).toBe(true);
    expect((Properties.KeyPolicy as { Statement: KeyStatement[] }).Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 'kms:CreateGrant', Principal: { AWS: '*' } }),
    );
  });

  test('gives CloudFront nothing: the site bucket is SSE-S3, read through the origin access control alone', () => {
    const statements = (key().resource.Properties.KeyPolicy as { Statement: KeyStatement[] }).Statement;
    expect(statements.filter((statement) => JSON.stringify(statement.Principal ?? '').includes('cloudfront'))).toEqual(
      [],
    );
  });
});

describe('the stack outputs', () => {
  test('gives the site URL, on the CloudFront domain when no custom domain is set', () => {
    const distributionId = resourceByPrefix(template, 'AWS::CloudFront::Distribution', 'SiteDistribution').logicalId;
    template.hasOutput('SiteUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] },
    });
    template.hasOutput('DistributionDomainName', { Value: { 'Fn::GetAtt': [distributionId, 'DomainName'] } });
  });

  test("gives no output from which the API's own address can be read, since cdk deploy prints every output", () => {
    const apiId = resourceByPrefix(template, 'AWS::ApiGatewayV2::Api', 'ApiHttpApi').logicalId;
    const outputs = template.findOutputs('*');
    const naming = Object.entries(outputs)
      .filter(
        ([, output]) => JSON.stringify(output.Value).includes(apiId) || JSON.stringify(output).includes('execute-api'),
      )
      .map(([name]) => name);
    expect(Object.keys(outputs).length).toBeGreaterThan(0);
    expect(naming).toEqual([]);
  });

  test('gives the names of the three tables and the PDF bucket', () => {
    const tableId = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').logicalId;
    const limitCountersTableId = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataSendQuotaTable').logicalId;
    const bucketId = resourceByPrefix(template, 'AWS::S3::Bucket', 'DataCheatSheetBucket').logicalId;
    template.hasOutput('TableName', { Value: { Ref: tableId } });
    template.hasOutput('SendQuotaTableName', { Value: { Ref: limitCountersTableId } });
    const idempotencyTableId = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataIdempotencyTable').logicalId;
    template.hasOutput('IdempotencyTableName', { Value: { Ref: idempotencyTableId } });
    template.hasOutput('CheatSheetBucketName', { Value: { Ref: bucketId } });
  });

  test("has no DKIM or MAIL FROM outputs for an address identity: the stack's own, and one log group per function", () => {
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual(
      [
        'AlarmTopicArn',
        'ApiAccessLogGroupName',
        'CheatSheetBucketName',
        'ConfigurationSetName',
        'DashboardUrl',
        'DistributionDomainName',
        'IdempotencyTableName',
        'LeadsKeyArn',
        'OriginSecretArn',
        'SendQuotaTableName',
        'SenderIdentityName',
        'SiteUrl',
        'TableName',
        'TicketTopicArn',
        ...builtFunctions.map((fn) => `${fn.id}LogGroupName`),
      ].sort(),
    );
  });

  test("gives the log group of every product function, and the API's access log, by name", () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')) as {
      Properties: { Description?: unknown; LoggingConfig?: { LogGroup?: unknown } };
    }[];
    // The product's own functions (infra/constructs/catalogue-function.ts), not CDK's deployment handlers.
    const productLogGroups = functions
      .filter((fn) => builtFunctions.some((built) => built.description === fn.Properties.Description))
      .map((fn) => fn.Properties.LoggingConfig?.LogGroup);
    expect(productLogGroups).toHaveLength(builtFunctions.length);
    const outputValues = Object.entries(template.findOutputs('*'))
      .filter(([name]) => name.endsWith('LogGroupName'))
      .map(([, output]) => (output as { Value: unknown }).Value);
    expect(outputValues).toEqual(expect.arrayContaining(productLogGroups));
    const accessLogId = resourceByPrefix(template, 'AWS::Logs::LogGroup', 'ApiAccessLogs').logicalId;
    template.hasOutput('ApiAccessLogGroupName', { Value: { Ref: accessLogId } });
  });

  test('gives the configuration set whose sending `aws sesv2` pauses and resumes', () => {
    const setId = resourceByPrefix(template, 'AWS::SES::ConfigurationSet', 'MailConfigurationSet').logicalId;
    template.hasOutput('ConfigurationSetName', { Value: { Ref: setId } });
  });

  test('names the SES identity the smoke test checks', () => {
    template.hasOutput('SenderIdentityName', { Value: exampleSender });
  });
});

describe("the key's policy for AWS services", () => {
  type KeyStatement = {
    Effect: string;
    Principal?: { Service?: unknown };
    Condition?: Record<string, Record<string, unknown>>;
  };
  const statements = () =>
    (
      resourceByPrefix(template, 'AWS::KMS::Key', 'LeadsKey').resource.Properties.KeyPolicy as {
        Statement: KeyStatement[];
      }
    ).Statement.filter((statement) => statement.Effect === 'Allow' && statement.Principal?.Service !== undefined);
  const conditionKeys = (statement: KeyStatement) =>
    Object.values(statement.Condition ?? {}).flatMap((condition) =>
      Object.keys(condition).map((key) => key.toLowerCase()),
    );
  const serviceOf = (statement: KeyStatement) => JSON.stringify(statement.Principal!.Service);

  test('conditions CloudWatch on this account (aws:SourceAccount) and its source (aws:SourceArn), EventBridge on the topics it encrypts for', () => {
    const byService = statements().filter((statement) => /cloudwatch|events/.test(serviceOf(statement)));
    expect(byService.map((statement) => [serviceOf(statement), conditionKeys(statement).sort()]).sort()).toEqual([
      ['"cloudwatch.amazonaws.com"', ['aws:sourceaccount', 'aws:sourcearn']],
      ['"events.amazonaws.com"', ['kms:encryptioncontext:aws:sns:topicarn']],
    ]);
  });

  test("lets CloudWatch use it for this stack's alarms alone, whose names all start with the stack name", () => {
    const cloudWatch = statements().find((statement) => serviceOf(statement).includes('cloudwatch'))!;
    expect(JSON.stringify(cloudWatch.Condition!.ArnLike)).toContain(':alarm:First100DaysSite-*');
    for (const alarm of Object.values(template.findResources('AWS::CloudWatch::Alarm'))) {
      expect(alarm.Properties.AlarmName).toMatch(/^First100DaysSite-/);
    }
  });

  test('gives no service principal an unconditioned statement', () => {
    expect(statements().filter((statement) => conditionKeys(statement).length === 0)).toEqual([]);
  });
});
