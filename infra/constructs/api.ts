import { Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  CfnStage,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { CfnPermission, type IFunction } from 'aws-cdk-lib/aws-lambda';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { CatalogueFunction as CatalogueEntry, FunctionEnvironment } from '../../core/api/catalogue/function-entry';
import { functionList } from '../../core/api/catalogue/functions';
import type { MailProvider } from '../../core/data/mail-provider';
import {
  routeThrottleRuleBreach,
  routesOf,
  type HttpMethod as RouteMethod,
  type ProductRoute,
} from '../../core/api/catalogue/routes';
import {
  challengeEnvironment,
  saveRequestEnvironment,
  sendCheatSheetEnvironment,
  submitFormEnvironment,
  visitCountEnvironment,
  type SaveRequestSettings,
  type SendCheatSheetSettings,
} from '../../core/config/function-environment';
import type { FunctionService } from '../../core/observability/product-metrics';
import { CatalogueFunction } from './catalogue-function';
import { EncryptedLogGroup } from './encrypted-log-group';

import { accessLogFormat } from './api-access-log';

export { functionRuntime } from './catalogue-function';
export { replyMarginMs } from '../../core/config/sdk-timeouts';

export interface ApiProps {
  /** The requests table; what each function may do on it is its route's `tableAccess`. */
  readonly table: ITable;
  /** The send queue (infra/constructs/send-queue.ts): a send SES's rate has no slot for is handed to it. */
  readonly sendQueue: IQueue;
  /** The limits' counters (per address, per client, the daily send budget); only the sends use it. */
  readonly limitCountersTable: ITable;
  /** `cheat_sheet_idempotency`: both JSON routes' and the form's Idempotency-Key records. */
  readonly idempotencyTable: ITable;
  /** `cheat_sheet_funnel_visitors`: the visit beacon's salt and visitor marks of the day. */
  readonly funnelVisitorsTable: ITable;
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
  /** Cheat sheets sent to one address per day (the context's `dailySendCap`). */
  readonly addressDailyCap: number;
  /** Cheat sheets sent at one client's request per hour (the context's `clientHourlySendCap`). */
  readonly clientHourlySendCap: number;
  /**
   * Cheat sheets sent at one network's request per hour: an IPv4 /24, an IPv6 /48 (the context's `networkHourlySendCap`).
   *
   * @default - the function's own, `defaultNetworkHourlySendCap` (core/config/function-environment.ts)
   */
  readonly networkHourlySendCap?: number;
  /**
   * Requests one client may save per hour (the context's `clientHourlySaveCap`).
   *
   * @default - the function's own, `defaultClientHourlySaveCap`
   */
  readonly clientHourlySaveCap?: number;
  /**
   * Requests one network may save per hour (the context's `networkHourlySaveCap`).
   *
   * @default - the function's own, `defaultNetworkHourlySaveCap`
   */
  readonly networkHourlySaveCap?: number;
  /** Cheat sheets the product sends per 24 hours (the default lives in infra/config.ts). */
  readonly dailySendBudget: number;
  /**
   * Whether a JSON send must carry the page's solved proof of work: `CHEAT_SHEET_CHALLENGE` of the
   * send and challenge functions (the context's `challenge`).
   *
   * @default true
   */
  readonly challenge?: boolean;
  /** The leads' key (infra/constructs/leads-key.ts): every log group here is encrypted with it. */
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
  /**
   * Handler entries other than the catalogue's, by route.
   *
   * @default each route's `entry` (core/api/catalogue/functions.ts) under projectRoot
   */
  readonly handlerEntries?: Readonly<Partial<Record<string, string>>>;
  /**
   * The catalogue of functions: the real one, unless a test passes a copy. Only its routes are built here.
   *
   * @default every entry of core/api/catalogue/functions.ts whose trigger is a route
   */
  readonly functions?: readonly CatalogueEntry[];
  /**
   * Route-level metrics (6 per route and method: Count, 4xx, 5xx, Latency, IntegrationLatency,
   * DataProcessed), billed as CloudWatch custom metrics, 0.30 USD a month each, prorated by the
   * hour a route gets a request. Off: no alarm reads them, and the canary's three routes alone
   * would make 18 of them billable every hour, 5.40 USD a month at rest, past the stage's 5 USD;
   * the dashboard graphs each route's function's duration instead (Lambda's metrics are free), and
   * the objectives read the stage's own metrics, which API Gateway always sends
   * (docs/operate.md, 'What monitoring costs').
   *
   * @default false
   */
  readonly detailedMetrics?: boolean;
  /**
   * The author's mail provider: each request's consent record names it (the reader was told).
   *
   * @default none
   */
  readonly mailProvider?: MailProvider;
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
  /** The path it answers with its method (its `ANY` twin answers 405). */
  readonly route: string;
  /** Its entry's method: the `Method` dimension of its route-level metrics. */
  readonly method: RouteMethod;
  /** The landing page's visit beacon: graphed on the author's funnel dashboard, not the operator's. */
  readonly beacon: boolean;
  /** Its timeout: past it Lambda ends the invocation and the visitor gets a bare 500. */
  readonly timeout: Duration;
}

/** The HTTP API, its `$default` stage and one function per route of the catalogue (core/api/catalogue/routes.ts). */
export class Api extends Construct {
  public readonly httpApi: HttpApi;
  /** `$default`, throttled and access-logged (HttpApi's own default stage cannot be throttled). */
  public readonly stage: HttpStage;
  public readonly accessLogGroup: LogGroup;
  /** Each route's function, by its name in the catalogue. */
  public readonly productFunctions: Readonly<Record<string, CatalogueFunction>>;
  /** Every function behind a route, with its route and metrics service: what the monitoring iterates. */
  public readonly functions: readonly ApiFunction[];
  /** The API's own URL (execute-api), ending in `/`. */
  public readonly url: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const logRetention = props.logRetention;

    const saveSettings: SaveRequestSettings = {
      tableName: props.table.tableName,
      requestRetentionDays: props.requestRetentionDays,
      limitCountersTableName: props.limitCountersTable.tableName,
      idempotencyTableName: props.idempotencyTable.tableName,
      clientHourlySaveCap: props.clientHourlySaveCap,
      networkHourlySaveCap: props.networkHourlySaveCap,
      // As the send function: behind CloudFront, a save without the origin secret is refused (403).
      clientAddressSource: 'cloudfront-viewer-address',
      originSecretArn: props.originSecret.secretArn,
      mailProvider: props.mailProvider,
    };
    // Written either way, so the template says which it is (absent would mean off too).
    const challenge = (props.challenge ?? true) ? 'on' : 'off';
    const sendSettings: SendCheatSheetSettings = {
      tableName: props.table.tableName,
      limitCountersTableName: props.limitCountersTable.tableName,
      idempotencyTableName: props.idempotencyTable.tableName,
      cheatSheetBucket: props.cheatSheetBucket.bucketName,
      cheatSheetKey: props.cheatSheetKey,
      senderEmail: props.senderEmail,
      addressDailyCap: props.addressDailyCap,
      clientHourlySendCap: props.clientHourlySendCap,
      networkHourlySendCap: props.networkHourlySendCap,
      dailySendBudget: props.dailySendBudget,
      // The API's TCP peer is a CloudFront server: the viewer's address is the one CloudFront
      // forwards, trusted only with the origin secret (lambdas/limits/client-address.ts).
      clientAddressSource: 'cloudfront-viewer-address',
      originSecretArn: props.originSecret.secretArn,
      configurationSetName: props.configurationSetName,
      cheatSheetVersion: props.cheatSheetVersion,
      requestRetentionDays: props.requestRetentionDays,
      challenge,
      sendQueueUrl: props.sendQueue.queueUrl,
    };
    const environments: Readonly<Partial<Record<FunctionEnvironment, Record<string, string>>>> = {
      none: {},
      saveRequest: saveRequestEnvironment(saveSettings),
      sendCheatSheet: sendCheatSheetEnvironment(sendSettings),
      both: submitFormEnvironment(saveSettings, sendSettings),
      challenge: challengeEnvironment({
        challenge,
        clientAddressSource: 'cloudfront-viewer-address',
        originSecretArn: props.originSecret.secretArn,
      }),
      visitCount: visitCountEnvironment({
        limitCountersTableName: props.limitCountersTable.tableName,
        funnelVisitorsTableName: props.funnelVisitorsTable.tableName,
        clientAddressSource: 'cloudfront-viewer-address',
        originSecretArn: props.originSecret.secretArn,
      }),
    };
    const resources = {
      tables: {
        requests: props.table,
        limitCounters: props.limitCountersTable,
        idempotency: props.idempotencyTable,
        funnelVisitors: props.funnelVisitorsTable,
      },
      emailIndexName: props.emailIndexName,
      cheatSheetBucket: props.cheatSheetBucket,
      cheatSheetKey: props.cheatSheetKey,
      senderIdentityArn: props.senderIdentityArn,
      configurationSetArn: props.configurationSetArn,
      originSecret: props.originSecret,
      sendQueue: props.sendQueue,
    };

    const productRoutes: readonly ProductRoute<string>[] = routesOf(props.functions ?? functionList);
    const breach = routeThrottleRuleBreach(productRoutes, props.throttle.rateLimit);
    if (breach) throw new Error(breach);
    // Each function's memory and timeout, with their reasons, and its grants are its entry's in
    // the catalogue; every timeout stays inside API Gateway's 30 s integration limit.
    const built = productRoutes.map((route) => {
      const environment = environments[route.environment];
      if (!environment)
        throw new Error(`${route.id}: a route's function cannot take the ${route.environment} variables`);
      const fn = new CatalogueFunction(this, route.id, {
        fn: route,
        resources,
        environment,
        encryptionKey: props.encryptionKey,
        logRetention,
        projectRoot: props.projectRoot,
        entryPath: props.handlerEntries?.[route.name],
      });
      return [route, fn] as const;
    });
    this.productFunctions = Object.fromEntries(built.map(([route, fn]) => [route.name, fn]));

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
      detailedMetricsEnabled: props.detailedMetrics ?? false,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogGroup),
        format: accessLogFormat,
      },
    });

    // The entry's method is the route; ANY sends every other method to the same function, which
    // answers 405, so no method gets API Gateway's 404 (which CloudFront would turn into the
    // not-found page).
    const routes = built.flatMap(([route, fn]) =>
      this.httpApi.addRoutes({
        path: route.path,
        methods: methodsOf(route),
        integration: new HttpLambdaIntegration(`${route.id}Integration`, fn.function, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        }),
      }),
    );
    this.addRouteThrottles(
      built.map(([route]) => route),
      props.detailedMetrics ?? false,
    );
    // The route settings name the routes by key: the stage is created once they exist.
    for (const route of routes) this.stage.node.addDependency(route);
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

    this.functions = built.map(([route, fn]) => ({
      function: fn.function,
      name: route.logService,
      services: route.metricsServices,
      route: route.path,
      method: route.method,
      timeout: fn.timeout,
      beacon: route.reply.kind === 'beacon',
    }));
    this.url = this.stage.url;
  }

  /** Each route's throttle (its catalogue entry's) as stage route settings, keyed `<METHOD> <path>` for its method and ANY. */
  private addRouteThrottles(
    routes: readonly Pick<ProductRoute<string>, 'method' | 'path' | 'throttle'>[],
    detailedMetrics: boolean,
  ): void {
    const settings = Object.fromEntries(
      routes.flatMap((route) =>
        methodsOf(route).map((method) => [
          `${method} ${route.path}`,
          {
            ThrottlingRateLimit: route.throttle.rateLimit,
            ThrottlingBurstLimit: route.throttle.burstLimit,
            // A route's settings replace the stage default's for that route: the metrics stay as set.
            DetailedMetricsEnabled: detailedMetrics,
          },
        ]),
      ),
    );
    (this.stage.node.defaultChild as CfnStage).routeSettings = settings;
  }
}

/** The route's own method, then ANY: every other method reaches the same function, which answers 405. */
function methodsOf(route: Pick<ProductRoute<string>, 'method'>): HttpMethod[] {
  return [HttpMethod[route.method], HttpMethod.ANY];
}
