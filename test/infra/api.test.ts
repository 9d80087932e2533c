import type { Template } from 'aws-cdk-lib/assertions';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { replyMarginMs } from '../../infra/constructs/api';
import { worstCaseSdkCallMs } from '../../core/config/sdk-timeouts';
import { cheatSheetFileName } from '../../core/content/cheat-sheet';
import { emailIndex } from '../../core/data/tables';
import { exampleSender, fixtures, resourceByPrefix, synthTemplate } from './support/synth';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

/** The statements of the one inline policy attached to the role whose ID starts with `rolePrefix`. */
function statementsOf(template: Template, rolePrefix: string): Statement[] {
  const role = resourceByPrefix(template, 'AWS::IAM::Role', rolePrefix);
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter(
    (policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: role.logicalId }]),
  );
  expect(policies).toHaveLength(1);
  return policies[0].Properties.PolicyDocument.Statement as Statement[];
}

/** The same statements, in any order: the order of a policy's statements carries no meaning. */
function expectSameStatements(actual: Statement[], expected: Statement[]): void {
  const sortedKeys = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sortedKeys)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, sortedKeys((value as any)[key])]),
          )
        : value;
  const byText = (statements: Statement[]) =>
    statements.map((statement) => JSON.stringify(sortedKeys(statement))).sort();
  expect(byText(actual)).toEqual(byText(expected));
}

/** Active tracing's grant, on * because X-Ray has no resource-level permissions (test/infra/stack.test.ts). */
const xrayStatement: Statement = {
  Effect: 'Allow',
  Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
  Resource: '*',
};

function functionProps(template: Template, prefix: string): Record<string, any> {
  return resourceByPrefix(template, 'AWS::Lambda::Function', prefix).resource.Properties;
}

/** The newest `nodejsNN.x` that aws-cdk-lib knows, found by reading its Runtime class. */
function newestNodeRuntime(): string {
  const versions = Object.values(Runtime)
    .filter((value): value is Runtime => value instanceof Runtime)
    .map((runtime) => /^nodejs(\d+)\.x$/.exec(runtime.name))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]));
  return `nodejs${Math.max(...versions)}.x`;
}

describe('the API construct', () => {
  let template: Template;
  let ids: {
    table: string;
    quotaTable: string;
    pdfBucket: string;
    identity: string;
    configurationSet: string;
    originSecret: string;
    saveLogs: string;
    sendLogs: string;
    formLogs: string;
    key: string;
  };
  beforeAll(() => {
    template = synthTemplate();
    ids = {
      table: resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').logicalId,
      quotaTable: resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataSendQuotaTable').logicalId,
      pdfBucket: resourceByPrefix(template, 'AWS::S3::Bucket', 'DataCheatSheetBucket').logicalId,
      identity: resourceByPrefix(template, 'AWS::SES::EmailIdentity', 'MailSenderIdentity').logicalId,
      configurationSet: resourceByPrefix(template, 'AWS::SES::ConfigurationSet', 'MailConfigurationSet').logicalId,
      originSecret: resourceByPrefix(template, 'AWS::SecretsManager::Secret', 'OriginSecret').logicalId,
      saveLogs: resourceByPrefix(template, 'AWS::Logs::LogGroup', 'ApiSaveRequestSaveRequestLogs').logicalId,
      sendLogs: resourceByPrefix(template, 'AWS::Logs::LogGroup', 'ApiSendCheatSheetSendCheatSheetLogs').logicalId,
      formLogs: resourceByPrefix(template, 'AWS::Logs::LogGroup', 'ApiSubmitFormSubmitFormLogs').logicalId,
      key: resourceByPrefix(template, 'AWS::KMS::Key', 'EncryptionKey').logicalId,
    };
  });

  test('runs the three functions on the newest Node.js runtime aws-cdk-lib offers, on arm64', () => {
    for (const prefix of [
      'ApiSaveRequestSaveRequestFunction',
      'ApiSendCheatSheetSendCheatSheetFunction',
      'ApiSubmitFormSubmitFormFunction',
    ]) {
      expect(functionProps(template, prefix)).toMatchObject({
        Runtime: newestNodeRuntime(),
        Architectures: ['arm64'],
        Handler: 'index.handler',
      });
    }
  });

  test('gives each function its own log group, kept a year and encrypted with the stack key', () => {
    expect(functionProps(template, 'ApiSaveRequestSaveRequestFunction').LoggingConfig).toEqual({
      LogGroup: { Ref: ids.saveLogs },
    });
    expect(functionProps(template, 'ApiSendCheatSheetSendCheatSheetFunction').LoggingConfig).toEqual({
      LogGroup: { Ref: ids.sendLogs },
    });
    expect(functionProps(template, 'ApiSubmitFormSubmitFormFunction').LoggingConfig).toEqual({
      LogGroup: { Ref: ids.formLogs },
    });
    for (const logGroup of [ids.saveLogs, ids.sendLogs, ids.formLogs]) {
      expect(template.toJSON().Resources[logGroup].Properties).toEqual({
        RetentionInDays: 365,
        KmsKeyId: { 'Fn::GetAtt': [ids.key, 'Arn'] },
      });
    }
  });

  test('sizes the functions as documented: save 256 MB / 10 s, send 512 MB / 15 s, form 512 MB / 20 s', () => {
    expect(functionProps(template, 'ApiSaveRequestSaveRequestFunction')).toMatchObject({
      MemorySize: 256,
      Timeout: 10,
    });
    expect(functionProps(template, 'ApiSendCheatSheetSendCheatSheetFunction')).toMatchObject({
      MemorySize: 512,
      Timeout: 15,
    });
    expect(functionProps(template, 'ApiSubmitFormSubmitFormFunction')).toMatchObject({ MemorySize: 512, Timeout: 20 });
  });

  test("gives the form function time for a failed save and a failed send call, inside API Gateway's 30 s", () => {
    const timeoutMs = functionProps(template, 'ApiSubmitFormSubmitFormFunction').Timeout * 1000;
    expect(timeoutMs - 2 * worstCaseSdkCallMs).toBeGreaterThanOrEqual(replyMarginMs);
    expect(timeoutMs).toBeLessThan(30_000);
  });

  test('gives each function time to reply after its slowest SDK call failed', () => {
    for (const prefix of [
      'ApiSaveRequestSaveRequestFunction',
      'ApiSendCheatSheetSendCheatSheetFunction',
      'ApiSubmitFormSubmitFormFunction',
    ]) {
      const timeoutMs = functionProps(template, prefix).Timeout * 1000;
      expect(timeoutMs - worstCaseSdkCallMs).toBeGreaterThanOrEqual(replyMarginMs);
    }
  });

  test('configures the functions with the contract environment variables and source maps', () => {
    expect(functionProps(template, 'ApiSaveRequestSaveRequestFunction').Environment.Variables).toEqual({
      TABLE_NAME: { Ref: ids.table },
      SEND_QUOTA_TABLE_NAME: { Ref: ids.quotaTable },
      CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT: '20',
      CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT: '60',
      CLIENT_ADDRESS_SOURCE: 'cloudfront-viewer-address',
      ORIGIN_SECRET_ARN: { Ref: ids.originSecret },
      NODE_OPTIONS: '--enable-source-maps',
    });
    expect(functionProps(template, 'ApiSendCheatSheetSendCheatSheetFunction').Environment.Variables).toEqual({
      TABLE_NAME: { Ref: ids.table },
      SEND_QUOTA_TABLE_NAME: { Ref: ids.quotaTable },
      CHEAT_SHEET_BUCKET: { Ref: ids.pdfBucket },
      CHEAT_SHEET_KEY: cheatSheetFileName,
      SENDER_EMAIL: exampleSender,
      CHEAT_SHEET_DAILY_LIMIT: '3',
      CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '10',
      CHEAT_SHEET_NETWORK_HOURLY_LIMIT: '30',
      CHEAT_SHEET_DAILY_SEND_BUDGET: '500',
      CLIENT_ADDRESS_SOURCE: 'cloudfront-viewer-address',
      ORIGIN_SECRET_ARN: { Ref: ids.originSecret },
      SES_CONFIGURATION_SET_NAME: { Ref: ids.configurationSet },
      CHEAT_SHEET_VERSION: expect.stringMatching(/^[0-9a-f]{16}$/),
      NODE_OPTIONS: '--enable-source-maps',
    });
  });

  test("configures the form function with the save and the send functions' variables together", () => {
    const save = functionProps(template, 'ApiSaveRequestSaveRequestFunction').Environment.Variables;
    const send = functionProps(template, 'ApiSendCheatSheetSendCheatSheetFunction').Environment.Variables;
    expect(functionProps(template, 'ApiSubmitFormSubmitFormFunction').Environment.Variables).toEqual({
      ...save,
      ...send,
    });
  });

  test('replaces warm send containers when the PDF changes, and only after the new PDF is in the bucket', () => {
    const pdf = readFileSync(path.join(fixtures.cheatSheetDirectory, cheatSheetFileName));
    const digest = createHash('sha256').update(pdf).digest('hex').slice(0, 16);
    const send = resourceByPrefix(
      template,
      'AWS::Lambda::Function',
      'ApiSendCheatSheetSendCheatSheetFunction',
    ).resource;
    expect((send.Properties.Environment as any).Variables.CHEAT_SHEET_VERSION).toBe(digest);
    const pdfDeployment = resourceByPrefix(template, 'Custom::CDKBucketDeployment', 'DataCheatSheetDeployment');
    expect(send.DependsOn).toContain(pdfDeployment.logicalId);
  });

  test('passes the daily cap, the per-client limit and the send budget from context to the variables the send function reads', () => {
    const capped = synthTemplate({ context: { dailySendCap: '5', clientHourlySendCap: '20', dailySendBudget: 2000 } });
    expect(functionProps(capped, 'ApiSendCheatSheetSendCheatSheetFunction').Environment.Variables).toMatchObject({
      CHEAT_SHEET_DAILY_LIMIT: '5',
      CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '20',
      CHEAT_SHEET_DAILY_SEND_BUDGET: '2000',
    });
  });

  test('lets the save function write its logs, put items into the table, claim its limits and read the origin secret, nothing else', () => {
    expectSameStatements(statementsOf(template, 'ApiSaveRequestSaveRequestRole'), [
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: { 'Fn::GetAtt': [ids.saveLogs, 'Arn'] },
      },
      xrayStatement,
      { Effect: 'Allow', Action: 'dynamodb:PutItem', Resource: { 'Fn::GetAtt': [ids.table, 'Arn'] } },
      {
        Effect: 'Allow',
        Action: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Resource: { 'Fn::GetAtt': [ids.quotaTable, 'Arn'] },
      },
      { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: ids.originSecret } },
    ]);
  });

  test('lets the send function read and decrypt (through S3 only) the one PDF, query the e-mail index, update requests, get, batch-get and update quota items, send from its identity through its configuration set alone, and read the origin secret: no PutItem', () => {
    expectSameStatements(statementsOf(template, 'ApiSendCheatSheetSendCheatSheetRole'), [
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: { 'Fn::GetAtt': [ids.sendLogs, 'Arn'] },
      },
      xrayStatement,
      {
        Effect: 'Allow',
        Action: 's3:GetObject',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [ids.pdfBucket, 'Arn'] }, `/${cheatSheetFileName}`]] },
      },
      {
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Resource: { 'Fn::GetAtt': [ids.key, 'Arn'] },
        Condition: {
          StringEquals: { 'kms:ViaService': { 'Fn::Join': ['', ['s3.', { Ref: 'AWS::Region' }, '.amazonaws.com']] } },
        },
      },
      {
        Effect: 'Allow',
        Action: 'dynamodb:Query',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [ids.table, 'Arn'] }, `/index/${emailIndex.name}`]] },
      },
      { Effect: 'Allow', Action: 'dynamodb:UpdateItem', Resource: { 'Fn::GetAtt': [ids.table, 'Arn'] } },
      {
        Effect: 'Allow',
        Action: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Resource: { 'Fn::GetAtt': [ids.quotaTable, 'Arn'] },
      },
      {
        Effect: 'Allow',
        Action: 'ses:SendEmail',
        Resource: [
          {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':ses:',
                { Ref: 'AWS::Region' },
                ':',
                { Ref: 'AWS::AccountId' },
                ':configuration-set/',
                { Ref: ids.configurationSet },
              ],
            ],
          },
          {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':ses:',
                { Ref: 'AWS::Region' },
                ':',
                { Ref: 'AWS::AccountId' },
                ':identity/',
                { Ref: ids.identity },
              ],
            ],
          },
        ],
      },
      { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: ids.originSecret } },
    ]);
  });

  test("lets the form function do exactly what save and send may, together: the save role's grants and the send role's", () => {
    // Each action on each resource, however CDK merges them into statements; the log grant and
    // X-Ray's are each role's own.
    const grants = (prefix: string) =>
      statementsOf(template, prefix)
        .slice(1)
        .filter((statement) => JSON.stringify(statement.Action) !== JSON.stringify(xrayStatement.Action))
        .flatMap(({ Action, Resource }) => [Action].flat().map((action) => `${action} on ${JSON.stringify(Resource)}`))
        .sort();
    expect(statementsOf(template, 'ApiSubmitFormSubmitFormRole')[0]).toEqual({
      Effect: 'Allow',
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: { 'Fn::GetAtt': [ids.formLogs, 'Arn'] },
    });
    expect(statementsOf(template, 'ApiSubmitFormSubmitFormRole')).toContainEqual(xrayStatement);
    // Both roles claim limits and read the secret: the form's role holds each grant once.
    expect(grants('ApiSubmitFormSubmitFormRole')).toEqual(
      [
        ...new Set([...grants('ApiSaveRequestSaveRequestRole'), ...grants('ApiSendCheatSheetSendCheatSheetRole')]),
      ].sort(),
    );
    expect(grants('ApiSubmitFormSubmitFormRole')).toContain(
      `dynamodb:PutItem on ${JSON.stringify({ 'Fn::GetAtt': [ids.table, 'Arn'] })}`,
    );
  });

  test('lets no role but the three function roles touch the quota table, and gives no role a condition on table keys', () => {
    const quotaArn = JSON.stringify({ 'Fn::GetAtt': [ids.quotaTable, 'Arn'] });
    const roleIds = [
      'ApiSaveRequestSaveRequestRole',
      'ApiSendCheatSheetSendCheatSheetRole',
      'ApiSubmitFormSubmitFormRole',
    ].map((prefix) => resourceByPrefix(template, 'AWS::IAM::Role', prefix).logicalId);
    const policiesOnQuota = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes(quotaArn))
      .map((policy) => policy.Properties.Roles);
    expect(policiesOnQuota).toEqual(roleIds.map((id) => [{ Ref: id }]));
    expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).not.toContain('LeadingKeys');
  });

  test('attaches no AWS managed policy to the function roles', () => {
    for (const prefix of [
      'ApiSaveRequestSaveRequestRole',
      'ApiSendCheatSheetSendCheatSheetRole',
      'ApiSubmitFormSubmitFormRole',
    ]) {
      expect(
        resourceByPrefix(template, 'AWS::IAM::Role', prefix).resource.Properties.ManagedPolicyArns,
      ).toBeUndefined();
    }
  });

  test('grants no function a * resource or a wildcard action, but for active tracing', () => {
    for (const prefix of [
      'ApiSaveRequestSaveRequestRole',
      'ApiSendCheatSheetSendCheatSheetRole',
      'ApiSubmitFormSubmitFormRole',
    ]) {
      const granted = statementsOf(template, prefix)
        .filter((statement) => JSON.stringify(statement.Action) !== JSON.stringify(xrayStatement.Action))
        .map(({ Action, Resource }) => ({ Action, Resource }));
      expect(JSON.stringify(granted)).not.toContain('*');
    }
  });

  test('traces every function actively with X-Ray', () => {
    const functions = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) =>
      id.startsWith('Api'),
    );
    expect(functions).toHaveLength(3);
    for (const [, fn] of functions) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
  });

  test('turns on route-level metrics, which the per-route latency alarms read', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { DetailedMetricsEnabled: true },
    });
  });

  test('throttles the $default stage to the documented rate and burst, overridable by context', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
    });
    const custom = synthTemplate({ context: { apiRateLimit: '2', apiBurstLimit: '4' } });
    custom.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 2, ThrottlingBurstLimit: 4 },
    });
  });

  test('has exactly one stage, so no unthrottled default stage exists', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
  });

  test('writes JSON access logs with the request id to an encrypted log group kept a year', () => {
    const accessLogs = resourceByPrefix(template, 'AWS::Logs::LogGroup', 'ApiAccessLogs');
    expect(accessLogs.resource.Properties).toEqual({
      RetentionInDays: 365,
      KmsKeyId: { 'Fn::GetAtt': [ids.key, 'Arn'] },
    });
    const stage = resourceByPrefix(template, 'AWS::ApiGatewayV2::Stage', 'ApiDefaultStage').resource;
    const settings = stage.Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };
    expect(settings.DestinationArn).toEqual({ 'Fn::GetAtt': [accessLogs.logicalId, 'Arn'] });
    expect(JSON.parse(settings.Format)).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      routeKey: '$context.routeKey',
    });
  });

  test('routes the three POST paths, and any other method on them, to their functions with payload format 2.0', () => {
    // The ANY twins let each function answer 405 where API Gateway would answer 404.
    template.resourceCountIs('AWS::ApiGatewayV2::Route', 6);
    for (const [routeKey, functionPrefix] of [
      ['POST /api/cheat-sheet-requests', 'ApiSaveRequestSaveRequestFunction'],
      ['ANY /api/cheat-sheet-requests', 'ApiSaveRequestSaveRequestFunction'],
      ['POST /api/send-cheat-sheet', 'ApiSendCheatSheetSendCheatSheetFunction'],
      ['ANY /api/send-cheat-sheet', 'ApiSendCheatSheetSendCheatSheetFunction'],
      ['POST /api/cheat-sheet-form', 'ApiSubmitFormSubmitFormFunction'],
      ['ANY /api/cheat-sheet-form', 'ApiSubmitFormSubmitFormFunction'],
    ]) {
      const route = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).find(
        (candidate) => candidate.Properties.RouteKey === routeKey,
      );
      expect(route).toBeDefined();
      const integrationId = (route!.Properties.Target['Fn::Join'][1] as unknown[])[1] as { Ref: string };
      const integration = template.toJSON().Resources[integrationId.Ref];
      const functionId = resourceByPrefix(template, 'AWS::Lambda::Function', functionPrefix).logicalId;
      expect(integration.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [functionId, 'Arn'] },
      });
    }
  });
});
