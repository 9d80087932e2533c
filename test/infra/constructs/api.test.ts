/**
 * The Api in a stack of its own, with only what it needs: the two tables, the PDF bucket, the key,
 * the origin secret and SES's ARNs. How the stack wires it (context, the PDF deployment) is in
 * test/infra/stack.test.ts and test/infra/stack-context.test.ts.
 */
import type { Environment } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { productRouteList } from '../../../core/api/catalogue/routes';
import { worstCaseSdkCallMs } from '../../../core/config/sdk-timeouts';
import { cheatSheetFileName } from '../../../core/content/cheat-sheet';
import { emailIndex } from '../../../core/data/tables';
import { Api, replyMarginMs, type ApiProps } from '../../../infra/constructs/api';
import { bareStack } from '../support/bare-stack';
import { exampleSender, resourceByPrefix } from '../support/synth';

const senderIdentityArn = 'arn:aws:ses:eu-west-1:111122223333:identity/example.com';
const configurationSetArn = 'arn:aws:ses:eu-west-1:111122223333:configuration-set/product-set';

/** The published limits (docs/abuse.md), passed as the stack passes the context's defaults. */
const publishedLimits = {
  throttle: { rateLimit: 32, burstLimit: 64 },
  addressDailyCap: 3,
  clientHourlySendCap: 10,
  networkHourlySendCap: 30,
  clientHourlySaveCap: 20,
  networkHourlySaveCap: 60,
  dailySendBudget: 10_000,
} satisfies Partial<ApiProps>;

/** The Api in a bare stack, and the logical IDs of what it was given. */
function apiInBareStack(props: Partial<ApiProps> = {}, env?: Environment) {
  const stack = bareStack({ env });
  const partitionKey = { name: 'id', type: AttributeType.STRING };
  const encryptionKey = new Key(stack, 'EncryptionKey');
  const table = new Table(stack, 'RequestsTable', { partitionKey });
  const limitCountersTable = new Table(stack, 'LimitCountersTable', { partitionKey });
  const idempotencyTable = new Table(stack, 'IdempotencyTable', { partitionKey });
  const funnelVisitorsTable = new Table(stack, 'FunnelVisitorsTable', { partitionKey });
  const cheatSheetBucket = new Bucket(stack, 'CheatSheetBucket', { encryption: BucketEncryption.KMS, encryptionKey });
  const originSecret = new Secret(stack, 'OriginSecret');
  const sendQueue = new Queue(stack, 'SendQueue');
  new Api(stack, 'Api', {
    sendQueue,
    table,
    limitCountersTable,
    idempotencyTable,
    funnelVisitorsTable,
    emailIndexName: emailIndex.name,
    cheatSheetBucket,
    cheatSheetKey: cheatSheetFileName,
    cheatSheetVersion: '0123456789abcdef',
    senderEmail: exampleSender,
    senderIdentityArn,
    configurationSetName: 'product-set',
    configurationSetArn,
    originSecret,
    encryptionKey,
    ...publishedLimits,
    ...props,
  });
  const template = Template.fromStack(stack);
  const idOf = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as never);
  const logsOf = (prefix: string) => resourceByPrefix(template, 'AWS::Logs::LogGroup', prefix).logicalId;
  return {
    template,
    ids: {
      table: idOf(table),
      sendQueue: idOf(sendQueue),
      limitCountersTable: idOf(limitCountersTable),
      idempotencyTable: idOf(idempotencyTable),
      funnelVisitorsTable: idOf(funnelVisitorsTable),
      pdfBucket: idOf(cheatSheetBucket),
      originSecret: idOf(originSecret),
      key: idOf(encryptionKey),
      saveLogs: logsOf('ApiSaveRequestSaveRequestLogs'),
      sendLogs: logsOf('ApiSendCheatSheetSendCheatSheetLogs'),
      formLogs: logsOf('ApiSubmitFormSubmitFormLogs'),
    },
  };
}

type Statement = { Sid?: string; Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

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
              .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
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

/** SES's send quota (GetAccount: the pace's rate), on * because it has no resource-level permission either. */
const sendQuotaStatement: Statement = {
  Sid: 'ReadSesSendQuota',
  Effect: 'Allow',
  Action: 'ses:GetAccount',
  Resource: '*',
};

const functionPrefixes = {
  save: 'ApiSaveRequestSaveRequestFunction',
  send: 'ApiSendCheatSheetSendCheatSheetFunction',
  form: 'ApiSubmitFormSubmitFormFunction',
  challenge: 'ApiCheatSheetChallengeCheatSheetChallengeFunction',
};
const rolePrefixes = [
  'ApiSaveRequestSaveRequestRole',
  'ApiSendCheatSheetSendCheatSheetRole',
  'ApiSubmitFormSubmitFormRole',
  'ApiCheatSheetChallengeCheatSheetChallengeRole',
];

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

type RouteSettings = Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;

function stageOf(template: Template) {
  const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as {
    Properties: { RouteSettings: RouteSettings; DefaultRouteSettings: Record<string, unknown> };
    DependsOn?: string[];
  }[];
  return stage;
}

describe('the API', () => {
  let template: Template;
  let ids: ReturnType<typeof apiInBareStack>['ids'];
  beforeAll(() => {
    ({ template, ids } = apiInBareStack());
  });

  describe('its functions', () => {
    test('run on the newest Node.js runtime aws-cdk-lib offers, on arm64', () => {
      for (const prefix of Object.values(functionPrefixes)) {
        expect(functionProps(template, prefix)).toMatchObject({
          Runtime: newestNodeRuntime(),
          Architectures: ['arm64'],
          Handler: 'index.handler',
        });
      }
    });

    test('each log to a log group of their own, kept a year and encrypted with the key given', () => {
      expect(functionProps(template, functionPrefixes.save).LoggingConfig).toEqual({ LogGroup: { Ref: ids.saveLogs } });
      expect(functionProps(template, functionPrefixes.send).LoggingConfig).toEqual({ LogGroup: { Ref: ids.sendLogs } });
      expect(functionProps(template, functionPrefixes.form).LoggingConfig).toEqual({ LogGroup: { Ref: ids.formLogs } });
      for (const logGroup of [ids.saveLogs, ids.sendLogs, ids.formLogs]) {
        expect(template.toJSON().Resources[logGroup].Properties).toEqual({
          RetentionInDays: 365,
          KmsKeyId: { 'Fn::GetAtt': [ids.key, 'Arn'] },
        });
      }
    });

    test('are sized as documented: save 256 MB / 10 s, send 512 MB / 20 s, form 512 MB / 25 s', () => {
      expect(functionProps(template, functionPrefixes.save)).toMatchObject({ MemorySize: 256, Timeout: 10 });
      expect(functionProps(template, functionPrefixes.send)).toMatchObject({ MemorySize: 512, Timeout: 20 });
      expect(functionProps(template, functionPrefixes.form)).toMatchObject({ MemorySize: 512, Timeout: 25 });
    });

    test("give the form function time for a failed save and a failed send call, inside API Gateway's 30 s", () => {
      const timeoutMs = functionProps(template, functionPrefixes.form).Timeout * 1000;
      expect(timeoutMs - 2 * worstCaseSdkCallMs).toBeGreaterThanOrEqual(replyMarginMs);
      expect(timeoutMs).toBeLessThan(30_000);
    });

    test('have time to reply after their slowest SDK call failed', () => {
      for (const prefix of Object.values(functionPrefixes)) {
        const timeoutMs = functionProps(template, prefix).Timeout * 1000;
        expect(timeoutMs - worstCaseSdkCallMs).toBeGreaterThanOrEqual(replyMarginMs);
      }
    });

    test('are traced actively with X-Ray', () => {
      const functions = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) =>
        id.startsWith('Api'),
      );
      expect(functions).toHaveLength(productRouteList.length);
      for (const [, fn] of functions) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    });
  });

  describe("its functions' variables", () => {
    test('give the save function the contract variables, and its limits', () => {
      expect(functionProps(template, functionPrefixes.save).Environment.Variables).toEqual({
        TABLE_NAME: { Ref: ids.table },
        SEND_QUOTA_TABLE_NAME: { Ref: ids.limitCountersTable },
        IDEMPOTENCY_TABLE_NAME: { Ref: ids.idempotencyTable },
        CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT: '20',
        CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT: '60',
        CLIENT_ADDRESS_SOURCE: 'cloudfront-viewer-address',
        ORIGIN_SECRET_ARN: { Ref: ids.originSecret },
      });
    });

    test('give the send function the contract variables, its limits, the PDF version and the send queue', () => {
      expect(functionProps(template, functionPrefixes.send).Environment.Variables).toEqual({
        SEND_QUEUE_URL: { Ref: ids.sendQueue },
        TABLE_NAME: { Ref: ids.table },
        SEND_QUOTA_TABLE_NAME: { Ref: ids.limitCountersTable },
        IDEMPOTENCY_TABLE_NAME: { Ref: ids.idempotencyTable },
        CHEAT_SHEET_BUCKET: { Ref: ids.pdfBucket },
        CHEAT_SHEET_KEY: cheatSheetFileName,
        SENDER_EMAIL: exampleSender,
        CHEAT_SHEET_DAILY_LIMIT: '3',
        CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '10',
        CHEAT_SHEET_NETWORK_HOURLY_LIMIT: '30',
        CHEAT_SHEET_DAILY_SEND_BUDGET: '10000',
        CLIENT_ADDRESS_SOURCE: 'cloudfront-viewer-address',
        ORIGIN_SECRET_ARN: { Ref: ids.originSecret },
        SES_CONFIGURATION_SET_NAME: 'product-set',
        CHEAT_SHEET_VERSION: '0123456789abcdef',
        CHEAT_SHEET_CHALLENGE: 'on',
      });
    });

    test('give the challenge function the proof of work switched on and the secret its challenges are signed with', () => {
      expect(functionProps(template, functionPrefixes.challenge).Environment.Variables).toEqual({
        CHEAT_SHEET_CHALLENGE: 'on',
        CLIENT_ADDRESS_SOURCE: 'cloudfront-viewer-address',
        ORIGIN_SECRET_ARN: { Ref: ids.originSecret },
      });
    });

    test('with challenge false, tell the send, form and challenge functions the proof of work is off', () => {
      const { template: withoutChallenge } = apiInBareStack({ challenge: false });
      for (const prefix of [functionPrefixes.send, functionPrefixes.form, functionPrefixes.challenge]) {
        expect(functionProps(withoutChallenge, prefix).Environment.Variables).toMatchObject({
          CHEAT_SHEET_CHALLENGE: 'off',
        });
      }
    });

    test("give the form function the save and the send functions' variables together", () => {
      const save = functionProps(template, functionPrefixes.save).Environment.Variables;
      const send = functionProps(template, functionPrefixes.send).Environment.Variables;
      expect(functionProps(template, functionPrefixes.form).Environment.Variables).toEqual({ ...save, ...send });
    });

    test('carry other caps and budget as given', () => {
      const { template: capped } = apiInBareStack({
        addressDailyCap: 5,
        clientHourlySendCap: 20,
        dailySendBudget: 2000,
      });
      expect(functionProps(capped, functionPrefixes.send).Environment.Variables).toMatchObject({
        CHEAT_SHEET_DAILY_LIMIT: '5',
        CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '20',
        CHEAT_SHEET_DAILY_SEND_BUDGET: '2000',
      });
    });

    test('with requestRetentionDays, tell the save and send functions the days', () => {
      const { template: withRetention } = apiInBareStack({ requestRetentionDays: 365 });
      for (const prefix of [functionPrefixes.save, functionPrefixes.send]) {
        expect(functionProps(withRetention, prefix).Environment).toMatchObject({
          Variables: { REQUEST_RETENTION_DAYS: '365' },
        });
      }
    });

    test('without requestRetentionDays, give neither function a retention variable', () => {
      for (const prefix of [functionPrefixes.save, functionPrefixes.send]) {
        expect(functionProps(template, prefix).Environment.Variables).not.toHaveProperty('REQUEST_RETENTION_DAYS');
      }
    });

    test('without a PDF version, give the send function no version variable', () => {
      const { template: unversioned } = apiInBareStack({ cheatSheetVersion: undefined });
      expect(functionProps(unversioned, functionPrefixes.send).Environment.Variables).not.toHaveProperty(
        'CHEAT_SHEET_VERSION',
      );
    });
  });

  describe("its functions' roles", () => {
    test("let the save function write its logs, put items into the table (and get a submission's request), claim its limits, keep its idempotency keys and read the origin secret, nothing else", () => {
      expectSameStatements(statementsOf(template, 'ApiSaveRequestSaveRequestRole'), [
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [ids.saveLogs, 'Arn'] },
        },
        xrayStatement,
        {
          Effect: 'Allow',
          Action: ['dynamodb:GetItem', 'dynamodb:PutItem'],
          Resource: { 'Fn::GetAtt': [ids.table, 'Arn'] },
        },
        {
          Effect: 'Allow',
          Action: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
          Resource: { 'Fn::GetAtt': [ids.limitCountersTable, 'Arn'] },
        },
        {
          Effect: 'Allow',
          Action: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
          Resource: { 'Fn::GetAtt': [ids.idempotencyTable, 'Arn'] },
        },
        { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: ids.originSecret } },
      ]);
    });

    test('let the send function read and decrypt (through S3 only) the one PDF, query the e-mail index, get and update requests, get, batch-get and update limit counters, send from its identity through its configuration set alone, and read the origin secret: no PutItem', () => {
      expectSameStatements(statementsOf(template, 'ApiSendCheatSheetSendCheatSheetRole'), [
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [ids.sendLogs, 'Arn'] },
        },
        xrayStatement,
        sendQuotaStatement,
        { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [ids.sendQueue, 'Arn'] } },
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
        {
          Effect: 'Allow',
          Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
          Resource: { 'Fn::GetAtt': [ids.table, 'Arn'] },
        },
        {
          Effect: 'Allow',
          Action: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
          Resource: { 'Fn::GetAtt': [ids.limitCountersTable, 'Arn'] },
        },
        {
          Effect: 'Allow',
          Action: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
          Resource: { 'Fn::GetAtt': [ids.idempotencyTable, 'Arn'] },
        },
        { Effect: 'Allow', Action: 'ses:SendEmail', Resource: [configurationSetArn, senderIdentityArn] },
        { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: ids.originSecret } },
      ]);
    });

    test("let the form function do exactly what save and send may, together: the save role's grants and the send role's", () => {
      // Each action on each resource, however CDK merges them into statements; the log grant and
      // X-Ray's are each role's own.
      const grants = (prefix: string) =>
        statementsOf(template, prefix)
          .slice(1)
          .filter((statement) => JSON.stringify(statement.Action) !== JSON.stringify(xrayStatement.Action))
          .flatMap(({ Action, Resource }) =>
            [Action].flat().map((action) => `${action} on ${JSON.stringify(Resource)}`),
          )
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

    test('give no role a condition on table keys', () => {
      expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).not.toContain('LeadingKeys');
    });

    test('carry no AWS managed policy', () => {
      for (const prefix of rolePrefixes) {
        expect(
          resourceByPrefix(template, 'AWS::IAM::Role', prefix).resource.Properties.ManagedPolicyArns,
        ).toBeUndefined();
      }
    });

    test("grant no * resource or wildcard action, but for active tracing and SES's send quota", () => {
      for (const prefix of rolePrefixes) {
        const granted = statementsOf(template, prefix)
          .filter((statement) => JSON.stringify(statement.Action) !== JSON.stringify(xrayStatement.Action))
          .filter((statement) => statement.Action !== sendQuotaStatement.Action)
          .map(({ Action, Resource }) => ({ Action, Resource }));
        expect(JSON.stringify(granted)).not.toContain('*');
      }
    });
  });

  describe('its stage', () => {
    test('leaves route-level metrics off, on the stage and on every route: billed per metric, and nothing reads them', () => {
      const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as {
        Properties: { DefaultRouteSettings: object; RouteSettings: Record<string, object> };
      }[];
      expect(stage.Properties.DefaultRouteSettings).toMatchObject({ DetailedMetricsEnabled: false });
      const routeSettings = Object.values(stage.Properties.RouteSettings);
      expect(routeSettings.length).toBeGreaterThan(0);
      expect(
        routeSettings.filter(
          (settings) => !('DetailedMetricsEnabled' in settings) || settings.DetailedMetricsEnabled !== false,
        ),
      ).toEqual([]);
    });

    test('is $default, auto-deployed and throttled to the rate and burst given', () => {
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: 32, ThrottlingBurstLimit: 64 },
      });
      const { template: custom } = apiInBareStack({ throttle: { rateLimit: 36, burstLimit: 72 } });
      custom.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        DefaultRouteSettings: { ThrottlingRateLimit: 36, ThrottlingBurstLimit: 72 },
      });
    });

    test('is the only one, so no unthrottled default stage exists', () => {
      template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    });

    test.each(productRouteList.map((route) => [route.path, route] as const))(
      "throttles %s on its own, at its entry's rate and burst, for its method and its ANY twin",
      (_, route) => {
        const settings = stageOf(template).Properties.RouteSettings;
        for (const method of [route.method, 'ANY']) {
          expect([method, settings[`${method} ${route.path}`]]).toEqual([
            method,
            expect.objectContaining({
              ThrottlingRateLimit: route.throttle.rateLimit,
              ThrottlingBurstLimit: route.throttle.burstLimit,
            }),
          ]);
        }
      },
    );

    test("keeps the stage-wide default throttle, which the routes' rates add up to at most", () => {
      const stage = stageOf(template);
      expect(stage.Properties.DefaultRouteSettings).toMatchObject({
        ThrottlingRateLimit: 32,
        ThrottlingBurstLimit: 64,
      });
      const rates = productRouteList.map(
        (route) => stage.Properties.RouteSettings[`${route.method} ${route.path}`].ThrottlingRateLimit as number,
      );
      expect(rates.reduce((sum, rate) => sum + rate, 0)).toBeLessThanOrEqual(32);
    });

    test('fails the synth, naming the route throttle rule, when the routes add up to more than the stage', () => {
      expect(() => apiInBareStack({ throttle: { rateLimit: 31, burstLimit: 64 } })).toThrow(
        /Breaks the route throttle rule: .* = 32 a second, over the stage's 31\. .*-c apiRateLimit=32/,
      );
    });

    test('is created once the routes its settings name exist', () => {
      const routeIds = Object.keys(template.findResources('AWS::ApiGatewayV2::Route'));
      // Each route's own method and its ANY twin.
      expect(routeIds).toHaveLength(2 * productRouteList.length);
      expect(stageOf(template).DependsOn).toEqual(expect.arrayContaining(routeIds));
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
  });

  describe('its routes', () => {
    test("send each route's method on its path, and any other method on it, to its function with payload format 2.0", () => {
      // The ANY twins let each function answer 405 where API Gateway would answer 404.
      template.resourceCountIs('AWS::ApiGatewayV2::Route', 2 * productRouteList.length);
      for (const [routeKey, functionPrefix] of productRouteList.flatMap((route) => [
        [`${route.method} ${route.path}`, `Api${route.id}${route.id}Function`],
        [`ANY ${route.path}`, `Api${route.id}${route.id}Function`],
      ])) {
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

    test.each([
      ['an environment-agnostic stack', undefined, { Ref: 'AWS::AccountId' }],
      ['a stack with an account', { account: '123456789012', region: 'eu-west-1' }, '123456789012'],
    ])(
      "let API Gateway invoke the functions only from this API's routes and this account, in %s",
      (_, env, expectedAccount) => {
        const { template: placed } = apiInBareStack({}, env);
        const permissions = Object.values(placed.findResources('AWS::Lambda::Permission'));
        // One per route: every function's own route and its ANY twin.
        expect(permissions).toHaveLength(Object.keys(placed.findResources('AWS::ApiGatewayV2::Route')).length);
        for (const permission of permissions) {
          expect(permission.Properties).toMatchObject({
            Principal: 'apigateway.amazonaws.com',
            SourceAccount: expectedAccount,
            SourceArn: { 'Fn::Join': expect.anything() },
          });
        }
      },
    );
  });
});
