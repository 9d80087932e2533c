import path from 'node:path';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, CfnPermission, Runtime, Tracing, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { apiRoutes, cheatSheetFormRoute } from '../../core/api/routes';
import {
  saveRequestEnvironment,
  sendCheatSheetEnvironment,
  submitFormEnvironment,
  type SaveRequestSettings,
  type SendCheatSheetSettings,
} from '../../core/config/function-environment';
import { functionServices, submitFormLogService, type FunctionService } from '../../core/observability/product-metrics';
import { worstCaseSdkCallMs } from '../../lambdas/shared/sdk-timeouts';
import { EncryptedLogGroup } from './encrypted-log-group';

/** The newest Node.js runtime aws-cdk-lib 2.276 offers; esbuild targets the same version. */
export const functionRuntime = Runtime.NODEJS_24_X;
const esbuildTarget = 'node24';

/** What a function needs after its slowest SDK call failed: log, build and return the JSON error. */
export const replyMarginMs = 2_000;

export interface ApiProps {
  /** The requests table; save puts into it, send queries its e-mail index and updates it. */
  readonly table: ITable;
  /** The daily cap's table; only send reads and updates it. */
  readonly sendQuotaTable: ITable;
  /** The table's e-mail index, the only index send may query. */
  readonly emailIndexName: string;
  /** The private bucket holding the PDF; with SSE-KMS, send may decrypt through S3 with its key. */
  readonly cheatSheetBucket: IBucket;
  /** The PDF's key; send may read this one object and nothing else. */
  readonly cheatSheetKey: string;
  /**
   * A digest of the PDF. The send function keeps the PDF in memory for the life of a container,
   * so it gets the digest as a variable: a new PDF changes the function's configuration, and
   * Lambda replaces every warm container instead of letting them send the old one for hours.
   *
   * @default - no such variable; warm containers keep the PDF they read first
   */
  readonly cheatSheetVersion?: string;
  /** The From address. */
  readonly senderEmail: string;
  /** ARN of the SES identity; send may call ses:SendEmail on it and the configuration set alone. */
  readonly senderIdentityArn: string;
  /** The SES configuration set send sends through (its name goes into SendEmail). */
  readonly configurationSetName: string;
  readonly configurationSetArn: string;
  /**
   * The secret CloudFront sends as the origin header: send reads it to trust the viewer address
   * CloudFront forwards, and to key its per-client counters.
   */
  readonly originSecret: ISecret;
  /** Stage-wide throttling (the defaults live in infra/config.ts). */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /** Cheat sheets sent to one address per day (the default lives in infra/config.ts). */
  readonly dailySendCap: number;
  /** Cheat sheets sent at one client's request per hour (the default lives in infra/config.ts). */
  readonly clientHourlySendCap: number;
  /** Cheat sheets the product sends per 24 hours (the default lives in infra/config.ts). */
  readonly dailySendBudget: number;
  /** The stack's customer managed key (infra/constructs/encryption-key.ts): every log group here is encrypted with it. */
  readonly encryptionKey: IKey;
  /**
   * Days after which the request items both functions write expire (their `expires_at` TTL
   * attribute); the requests table's TTL (Data's `requestRetentionDays`) must be on as well.
   *
   * @default - none: requests are kept
   */
  readonly requestRetentionDays?: number;
  /**
   * How long function logs and API access logs are kept.
   *
   * @default logRetention of infra/constructs/encrypted-log-group.ts: a year, the least Control Tower accepts
   */
  readonly logRetention?: RetentionDays;
  /**
   * The repository root: the handlers' entries and the lock file are resolved from it.
   *
   * @default process.cwd()
   */
  readonly projectRoot?: string;
  /** @default `lambdas/save-request/handler.ts` under projectRoot */
  readonly saveRequestEntry?: string;
  /** @default `lambdas/send-cheat-sheet/handler.ts` under projectRoot */
  readonly sendCheatSheetEntry?: string;
  /** @default `lambdas/submit-form/handler.ts` under projectRoot */
  readonly submitFormEntry?: string;
  /**
   * Route-level metrics (Latency, 5xx... per route), which the per-route latency alarms and the
   * dashboard read. Billed as CloudWatch custom metrics: 6 per route, about 0.30 USD a month each
   * in the hours a route gets requests (README, 'Operate').
   *
   * @default true
   */
  readonly detailedMetrics?: boolean;
}

/** A function behind the API, as the monitoring sees it. */
export interface ApiFunction {
  readonly function: IFunction;
  /** What alarm descriptions and graphs call it: its logs' `service`. */
  readonly name: string;
  /**
   * The `service` dimensions of the product metrics it emits (core/observability/product-metrics.ts):
   * its route's own, or both for the form function, which runs the save and send handlers.
   */
  readonly services: readonly FunctionService[];
  /** The path it answers with POST (its `ANY` twin answers 405). */
  readonly route: string;
  /** Its timeout: past it Lambda ends the invocation and the visitor gets a bare 500. */
  readonly timeout: Duration;
}

/** The HTTP API, its `$default` stage and the three functions behind its routes. */
export class Api extends Construct {
  public readonly httpApi: HttpApi;
  /** `$default`, throttled and access-logged (HttpApi's own default stage cannot be throttled). */
  public readonly stage: HttpStage;
  public readonly accessLogGroup: LogGroup;
  public readonly saveRequestFunction: NodejsFunction;
  public readonly sendCheatSheetFunction: NodejsFunction;
  /** The form's own `action` (JavaScript off, or the page's script not loaded yet): save, then send. */
  public readonly submitFormFunction: NodejsFunction;
  /** Every function behind a route, with its route and metrics service: what the monitoring iterates. */
  public readonly functions: readonly ApiFunction[];
  /** The API's own URL (execute-api), ending in `/`. */
  public readonly url: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const projectRoot = props.projectRoot ?? process.cwd();
    const logRetention = props.logRetention;

    const saveSettings: SaveRequestSettings = {
      tableName: props.table.tableName,
      requestRetentionDays: props.requestRetentionDays,
    };
    const sendSettings: SendCheatSheetSettings = {
      tableName: props.table.tableName,
      sendQuotaTableName: props.sendQuotaTable.tableName,
      cheatSheetBucket: props.cheatSheetBucket.bucketName,
      cheatSheetKey: props.cheatSheetKey,
      senderEmail: props.senderEmail,
      dailyLimit: props.dailySendCap,
      clientHourlyLimit: props.clientHourlySendCap,
      dailySendBudget: props.dailySendBudget,
      // The API's TCP peer is a CloudFront server: the viewer's address is the one CloudFront
      // forwards, trusted only with the origin secret (lambdas/shared/client-address.ts).
      clientAddressSource: 'cloudfront-viewer-address',
      originSecretArn: props.originSecret.secretArn,
      configurationSetName: props.configurationSetName,
      cheatSheetVersion: props.cheatSheetVersion,
      requestRetentionDays: props.requestRetentionDays,
    };

    // Timeouts: every SDK call fails within worstCaseSdkCallMs (7 s: two attempts of at most
    // 3 s and at most 1 s of back-off, lambdas/shared/sdk-timeouts.ts). A function must outlast
    // its slowest failing call and still send its JSON error; otherwise Lambda kills it and API
    // Gateway answers a bare 500. All three stay inside API Gateway's 30 s integration limit.
    //
    // Save does one PutItem: 10 s is that call failing at worst (7 s) plus 3 s to spare. 256 MB
    // rather than 128 because Lambda's CPU share grows with memory, and loading the ~400 KB
    // bundle is most of a cold request.
    const saveRequestTimeout = Duration.seconds(10);
    this.saveRequestFunction = this.createFunction('SaveRequest', {
      projectRoot,
      entry: props.saveRequestEntry ?? path.join(projectRoot, 'lambdas/save-request/handler.ts'),
      description: `POST ${apiRoutes.saveRequest}: stores a cheat-sheet request.`,
      memorySize: 256,
      timeout: saveRequestTimeout,
      logRetention,
      encryptionKey: props.encryptionKey,
      environment: saveRequestEnvironment(saveSettings),
    });
    this.saveRequestFunction.addToRolePolicy(
      new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [props.table.tableArn] }),
    );

    // Send reads the origin secret and the PDF into memory (cold containers only; the PDF about
    // 1.4 times its size once base64-encoded into the e-mail), claims a slot of each limit (the
    // client's and the budget's counters: an UpdateItem, a BatchGetItem and an UpdateItem each;
    // the address's: GetItem, UpdateItem), calls SES, then finds and flags the request (Query,
    // UpdateItem; up to two 150 ms pauses while the index catches up). Each call takes a few
    // milliseconds; a service that stalls fails its first call, so one failing call (7 s) plus the
    // others at their usual speed is the worst case: 15 s leaves over 5 s to spare. 512 MB keeps
    // the bundle's cold start and the encoding quick.
    const sendCheatSheetTimeout = Duration.seconds(15);
    this.sendCheatSheetFunction = this.createFunction('SendCheatSheet', {
      projectRoot,
      entry: props.sendCheatSheetEntry ?? path.join(projectRoot, 'lambdas/send-cheat-sheet/handler.ts'),
      description: `POST ${apiRoutes.sendCheatSheet}: e-mails the cheat sheet.`,
      memorySize: 512,
      timeout: sendCheatSheetTimeout,
      logRetention,
      encryptionKey: props.encryptionKey,
      environment: sendCheatSheetEnvironment(sendSettings),
    });
    const sendStatements = [
      new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [props.cheatSheetBucket.arnForObjects(props.cheatSheetKey)],
      }),
      // The PDF is SSE-KMS: S3 decrypts it with the bucket's key for this role, and only S3 may.
      ...(props.cheatSheetBucket.encryptionKey
        ? [
            new PolicyStatement({
              actions: ['kms:Decrypt'],
              resources: [props.cheatSheetBucket.encryptionKey.keyArn],
              conditions: { StringEquals: { 'kms:ViaService': `s3.${Stack.of(this).region}.amazonaws.com` } },
            }),
          ]
        : []),
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [`${props.table.tableArn}/index/${props.emailIndexName}`],
      }),
      // UpdateItem, always conditional: flags the request as sent, and records a send that had
      // no request to flag (createSent creates the item with UpdateItem and
      // attribute_not_exists(id)), so the send function needs no PutItem. No GetItem: the
      // requests table's items are read through the e-mail index only.
      new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [props.table.tableArn] }),
      // The daily cap (lambdas/send-cheat-sheet/send-quota.ts): a consistent GetItem, then a
      // conditional UpdateItem that also sets the TTL attribute. The per-client and budget
      // counters (rolling-counter.ts) in the same table: UpdateItem to seal and to claim, a
      // consistent BatchGetItem of the window's earlier buckets. On the quota table alone.
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem'],
        resources: [props.sendQuotaTable.tableArn],
      }),
      // SES checks SendEmail against the identity and, when one is named, the configuration set.
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [props.senderIdentityArn, props.configurationSetArn],
      }),
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [props.originSecret.secretArn] }),
    ];
    for (const statement of sendStatements) this.sendCheatSheetFunction.addToRolePolicy(statement);

    // The form route runs both handlers in one invocation. When DynamoDB stalls, save fails (7 s)
    // and so does send's first call to it (7 s), the rest at their usual speed: about 15 s, so
    // 20 s leaves 5 s to spare, inside API Gateway's 30 s integration limit. 512 MB as send, for
    // the same PDF work.
    const submitFormTimeout = Duration.seconds(20);
    this.submitFormFunction = this.createFunction('SubmitForm', {
      projectRoot,
      entry: props.submitFormEntry ?? path.join(projectRoot, 'lambdas/submit-form/handler.ts'),
      description: `POST ${cheatSheetFormRoute}: the form without its script; saves, sends, redirects to a result page.`,
      memorySize: 512,
      timeout: submitFormTimeout,
      logRetention,
      encryptionKey: props.encryptionKey,
      environment: submitFormEnvironment(saveSettings, sendSettings),
    });
    // Exactly the save function's grant plus the send function's: it runs the same two handlers.
    for (const statement of [
      new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [props.table.tableArn] }),
      ...sendStatements,
    ]) {
      this.submitFormFunction.addToRolePolicy(statement);
    }

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'The cheat-sheet form: saves requests and e-mails the PDF.',
      createDefaultStage: false,
    });

    this.accessLogGroup = new EncryptedLogGroup(this, 'AccessLogs', {
      encryptionKey: props.encryptionKey,
      retention: logRetention,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      detailedMetricsEnabled: props.detailedMetrics ?? true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogGroup),
        // One JSON object per request; no bodies, so no names or addresses.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTime',
            sourceIp: '$context.identity.sourceIp',
            userAgent: '$context.identity.userAgent',
            httpMethod: '$context.httpMethod',
            path: '$context.path',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationStatus: '$context.integrationStatus',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    // POST is the route; ANY sends every other method to the same function, which answers 405,
    // so no method gets API Gateway's 404 (which CloudFront would turn into the not-found page).
    const routeMethods = [HttpMethod.POST, HttpMethod.ANY];
    const routes = [
      ...this.httpApi.addRoutes({
        path: apiRoutes.saveRequest,
        methods: routeMethods,
        integration: new HttpLambdaIntegration('SaveRequestIntegration', this.saveRequestFunction, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        }),
      }),
      ...this.httpApi.addRoutes({
        path: apiRoutes.sendCheatSheet,
        methods: routeMethods,
        integration: new HttpLambdaIntegration('SendCheatSheetIntegration', this.sendCheatSheetFunction, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        }),
      }),
      // Answers 303 or an HTML 4xx page, never 404 (lambdas/submit-form/handler.ts).
      ...this.httpApi.addRoutes({
        path: cheatSheetFormRoute,
        methods: routeMethods,
        integration: new HttpLambdaIntegration('SubmitFormIntegration', this.submitFormFunction, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        }),
      }),
    ];
    for (const route of routes) {
      Validations.of(route.node.defaultChild ?? route).acknowledge({
        id: 'AwsSolutions::AwsSolutions-APIG4',
        reason:
          "The route is the anonymous cheat-sheet form of a public marketing page: visitors have no accounts to authorize. Abuse is bounded by the stage throttling, the handlers' input validation (schema, 10 KB body, honeypot), the per-address daily cap, the per-client hourly limit and the product's daily send budget.",
      });
    }

    // API Gateway may invoke each function from this API's routes (SourceArn) in this account
    // (SourceAccount, Control Tower's CT.LAMBDA.PR.2): every invoke permission the routes added.
    for (const permission of this.httpApi.node
      .findAll()
      .filter((c): c is CfnPermission => c instanceof CfnPermission)) {
      permission.sourceAccount = Stack.of(this).account;
    }

    this.functions = [
      {
        function: this.saveRequestFunction,
        name: functionServices.saveRequest,
        services: [functionServices.saveRequest],
        route: apiRoutes.saveRequest,
        timeout: saveRequestTimeout,
      },
      {
        function: this.sendCheatSheetFunction,
        name: functionServices.sendCheatSheet,
        services: [functionServices.sendCheatSheet],
        route: apiRoutes.sendCheatSheet,
        timeout: sendCheatSheetTimeout,
      },
      {
        // Its saves and sends count where the JSON routes' do: the funnel and the alarms cover both ways in.
        function: this.submitFormFunction,
        name: submitFormLogService,
        services: [functionServices.saveRequest, functionServices.sendCheatSheet],
        route: cheatSheetFormRoute,
        timeout: submitFormTimeout,
      },
    ];
    this.url = this.stage.url;
  }

  /**
   * A function with its own role (no AWS managed policy: it may write to its log group and do
   * only what the caller grants next) and its own log group with retention.
   */
  private createFunction(
    id: string,
    options: {
      readonly projectRoot: string;
      readonly entry: string;
      readonly description: string;
      readonly memorySize: number;
      readonly timeout: Duration;
      readonly logRetention?: RetentionDays;
      readonly encryptionKey: IKey;
      readonly environment: Record<string, string>;
    },
  ): NodejsFunction {
    if (options.timeout.toMilliseconds() < worstCaseSdkCallMs + replyMarginMs) {
      throw new Error(
        `${id}: a timeout of ${options.timeout.toHumanString()} does not outlast a failing SDK call (${worstCaseSdkCallMs} ms) by ${replyMarginMs} ms`,
      );
    }
    const logGroup = new EncryptedLogGroup(this, `${id}Logs`, {
      encryptionKey: options.encryptionKey,
      retention: options.logRetention,
    });
    const role = new Role(this, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: options.description,
    });
    logGroup.grantWrite(role);

    const fn = new NodejsFunction(this, `${id}Function`, {
      entry: options.entry,
      handler: 'handler',
      projectRoot: options.projectRoot,
      depsLockFilePath: path.join(options.projectRoot, 'package-lock.json'),
      runtime: functionRuntime,
      architecture: Architecture.ARM_64, // cheaper per GB-second than x86, same Node code
      memorySize: options.memorySize,
      timeout: options.timeout,
      description: options.description,
      role,
      logGroup,
      environment: {
        ...options.environment,
        NODE_OPTIONS: '--enable-source-maps', // stack traces point at the TypeScript source
      },
      bundling: functionBundling,
      // Lambda's own segments (init, invocation, overhead) in X-Ray; no SDK instrumentation in
      // the bundle (README, 'Operate': it would cost more cold start than it tells).
      tracing: Tracing.ACTIVE,
    });
    Validations.of(role.node.findChild('DefaultPolicy')).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords, which X-Ray only grants on *: they have no resource-level permissions.',
    });
    Validations.of(fn.node.defaultChild ?? fn).acknowledge({
      id: 'Serverless::Serverless-LambdaDLQ',
      reason:
        'API Gateway invokes the function synchronously and hands its reply, or its failure, straight back to the visitor, whose page shows the error; a dead-letter queue only receives failed asynchronous invocations, which this function never gets.',
    });
    return fn;
  }
}

/**
 * Local esbuild, never Docker: minified ESM with the AWS SDK inside the bundle (a bundled,
 * tree-shaken SDK loads faster than the runtime's full copy and is pinned by our lock file).
 */
export const functionBundling: BundlingOptions = {
  format: OutputFormat.ESM,
  target: esbuildTarget,
  minify: true,
  sourceMap: true,
  sourceMapMode: SourceMapMode.DEFAULT,
  // Line numbers are enough to read a stack trace; the sources themselves stay in the repo.
  sourcesContent: false,
  externalModules: [],
  mainFields: ['module', 'main'],
  // Some SDK dependencies are CommonJS and call require() for Node built-ins, which an ES
  // module does not have: give the bundle one.
  banner:
    "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
};
