import path from 'node:path';
import { AssetHashType, CfnOutput, DockerImage, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Code, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type {
  CatalogueFunction as CatalogueEntry,
  OtherGrant,
  ProductTable,
  TableAccess,
} from '../../core/api/catalogue/function-entry';
import { singleItemTableActions } from '../../core/api/catalogue/function-entry';
import { integrationTimeoutSeconds, timeoutLeavesRoomToReply } from '../../core/api/catalogue/routes';
import { replyMarginMs, worstCaseSdkCallMs } from '../../core/config/sdk-timeouts';
import { bundleFunction, functionHandler, functionNodeOptions } from '../function-bundle';
import { EncryptedLogGroup } from './encrypted-log-group';

/** The newest Node.js runtime aws-cdk-lib 2.276 offers; esbuild targets the same version. */
export const functionRuntime = Runtime.NODEJS_24_X;

/** What an entry's `tableAccess` and `grants` name, as resources; a function granted none of one may go without it. */
export interface FunctionResources {
  /** Each table an entry's `tableAccess` names. */
  readonly tables: Readonly<Partial<Record<ProductTable, ITable>>>;
  /** The requests table's e-mail index, the only index a function may query. */
  readonly emailIndexName?: string;
  /** `cheatSheetRead`: the private bucket holding the PDF; with SSE-KMS, S3 may decrypt with its key. */
  readonly cheatSheetBucket?: IBucket;
  /** `cheatSheetRead`: the one key that may be read. */
  readonly cheatSheetKey?: string;
  /** `emailSend`: SES checks SendEmail against the identity and, when one is named, the configuration set. */
  readonly senderIdentityArn?: string;
  /** `emailSend`, `sendingPause`: the product's configuration set. */
  readonly configurationSetArn?: string;
  /** `originSecretRead`: the secret CloudFront sends as the origin header. */
  readonly originSecret?: ISecret;
  /** `sendQueueWrite`: the send queue (infra/constructs/send-queue.ts). */
  readonly sendQueue?: IQueue;
}

export interface CatalogueFunctionProps {
  /** Its entry in the catalogue of functions (core/api/catalogue/functions.ts), with its defaults. */
  readonly fn: CatalogueEntry;
  readonly resources: FunctionResources;
  /** Its variables, built for its entry's `environment`. */
  readonly environment: Readonly<Record<string, string>>;
  /** The leads' key (infra/constructs/leads-key.ts): the log group is encrypted with it. */
  readonly encryptionKey: IKey;
  /** @default logRetention of infra/constructs/encrypted-log-group.ts: a year */
  readonly logRetention?: RetentionDays;
  /**
   * The repository root: the entry and the lock file are resolved from it.
   *
   * @default process.cwd()
   */
  readonly projectRoot?: string;
  /** @default the entry's `entry` under projectRoot */
  readonly entryPath?: string;
}

/**
 * The function's code: bundled by infra/function-bundle.ts with the local esbuild (never Docker):
 * the handler's module as `index.mjs`, loaded in Lambda's init phase, and the SDK's on-demand
 * chunks beside it. NodejsFunction's own bundling writes one file (`--outfile`), which code splitting cannot use.
 * Hashed by the output, as NodejsFunction hashes its bundles.
 */
function functionCode(projectRoot: string, entryPath: string): Code {
  return Code.fromAsset(projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: local bundling always succeeds or throws (tryBundle returns true).
      image: DockerImage.fromRegistry('local-esbuild-only'),
      // Never run either, but it names the entry: CDK keys its in-process cache of bundles on
      // these options as JSON, where tryBundle (a function) does not appear, so without it every
      // function of a synth would get the first one's bundle.
      command: ['bundle', path.relative(projectRoot, entryPath)],
      local: {
        tryBundle(outputDir) {
          bundleFunction({ entry: entryPath, outdir: outputDir, projectRoot });
          return true;
        },
      },
    },
  });
}

/**
 * Why an HTTP route's function needs no dead-letter queue: API Gateway invokes it synchronously.
 */
const synchronousInvocation =
  'API Gateway invokes the function synchronously and hands its reply, or its failure, straight back to the visitor, whose page shows the error; a dead-letter queue only receives failed asynchronous invocations, which this function never gets.';

/**
 * Every function of the product, built one way from its catalogue entry: bundled with esbuild
 * (infra/function-bundle.ts), arm64, its memory and timeout, its own role (no AWS managed policy:
 * it may write to its log group and do only what its entry grants), its own encrypted log group
 * (an output named `<id>LogGroupName`), active tracing. Its trigger is wired by whoever owns the
 * trigger's resource: the `Api` construct for a route, infra/constructs/function-triggers.ts for
 * the others. Children are `<id>Logs`, `<id>Role` and `<id>Function`, so the alarms' names
 * (`<id>FunctionErrors`) stay.
 */
export class CatalogueFunction extends Construct {
  public readonly function: NodejsFunction;
  public readonly role: Role;
  public readonly logGroup: LogGroup;
  public readonly timeout: Duration;
  /** Its entry, with its defaults. */
  public readonly entry: CatalogueEntry;

  constructor(scope: Construct, id: string, props: CatalogueFunctionProps) {
    super(scope, id);
    const { fn } = props;
    this.entry = fn;
    const callsTheSdk = fn.tableAccess.length > 0 || fn.grants.length > 0;
    if (callsTheSdk && !timeoutLeavesRoomToReply(fn)) {
      throw new Error(
        `${fn.id}: a timeout of ${fn.timeoutSeconds} s does not outlast a failing SDK call (${worstCaseSdkCallMs} ms) by ${replyMarginMs} ms`,
      );
    }
    if (fn.trigger.kind === 'http' && fn.timeoutSeconds > integrationTimeoutSeconds) {
      throw new Error(
        `${fn.id}: a route's timeout of ${fn.timeoutSeconds} s is longer than API Gateway's ${integrationTimeoutSeconds} s integration timeout`,
      );
    }
    this.timeout = Duration.seconds(fn.timeoutSeconds);
    const projectRoot = props.projectRoot ?? process.cwd();

    this.logGroup = new EncryptedLogGroup(this, `${fn.id}Logs`, {
      encryptionKey: props.encryptionKey,
      retention: props.logRetention,
    });
    this.role = new Role(this, `${fn.id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: fn.description,
    });
    this.logGroup.grantWrite(this.role);
    this.function = new NodejsFunction(this, `${fn.id}Function`, {
      code: functionCode(projectRoot, props.entryPath ?? path.join(projectRoot, fn.entry)),
      handler: functionHandler,
      runtime: functionRuntime,
      architecture: Architecture.ARM_64, // cheaper per GB-second than x86, same Node code
      memorySize: fn.memoryMb,
      timeout: this.timeout,
      description: fn.description,
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...props.environment, ...(functionNodeOptions && { NODE_OPTIONS: functionNodeOptions }) },
      // Lambda's own segments (init, invocation, overhead) in X-Ray; no SDK instrumentation in
      // the bundle: it would cost more cold start than it tells.
      tracing: Tracing.ACTIVE,
    });
    // The name to open at 3 a.m. (docs/operate.md): an output per function, named after it.
    const output = new CfnOutput(this, `${fn.id}LogGroupName`, {
      description: `The log group of the ${fn.id} function: ${fn.description}`,
      value: this.logGroup.logGroupName,
    });
    output.overrideLogicalId(`${fn.id}LogGroupName`);

    const region = Stack.of(this).region;
    for (const statement of [
      ...fn.tableAccess.map((access) => tableStatement(fn.id, access, props.resources)),
      ...fn.grants.flatMap((grant) => otherStatements(fn.id, grant, props.resources, region)),
    ]) {
      this.role.addToPolicy(statement);
    }

    Validations.of(this.role.node.findChild('DefaultPolicy')).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason: fn.grants.includes('sendQuotaRead')
        ? "Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords; and ses:GetAccount (the account's maximum send rate, read-only): none has resource-level permissions, so IAM grants them on * only."
        : 'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords, which X-Ray only grants on *: they have no resource-level permissions.',
    });
    Validations.of(this.function.node.defaultChild ?? this.function).acknowledge({
      id: 'Serverless::Serverless-LambdaDLQ',
      reason: fn.trigger.kind === 'http' ? synchronousInvocation : fn.trigger.undelivered.invocation,
    });
  }
}

function given<T>(fnId: string, what: string, value: T | undefined): T {
  if (value === undefined) throw new Error(`${fnId} is granted ${what}, which was not given to its construct`);
  return value;
}

function tableStatement(fnId: string, access: TableAccess, resources: FunctionResources): PolicyStatement {
  const table = given(fnId, `the ${access.table} table`, resources.tables[access.table]);
  const tableArn = table.tableArn;
  const broad = access.actions.filter((action) => !singleItemTableActions.includes(action));
  if (access.leadingKeys && broad.length > 0)
    throw new Error(`${fnId}: leadingKeys narrows single-item actions only, not ${broad.join(', ')}`);
  return new PolicyStatement({
    actions: [...access.actions],
    // https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html:
    // a request's partition keys, each of which must match (ForAllValues).
    ...(access.leadingKeys && {
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...access.leadingKeys] } },
    }),
    resources: [
      access.index
        ? `${tableArn}/index/${access.index}`
        : access.emailIndex
          ? `${tableArn}/index/${given(fnId, 'the e-mail index', resources.emailIndexName)}`
          : tableArn,
    ],
  });
}

function otherStatements(
  fnId: string,
  grant: OtherGrant,
  resources: FunctionResources,
  region: string,
): PolicyStatement[] {
  switch (grant) {
    case 'cheatSheetRead': {
      const bucket = given(fnId, 'the PDF bucket', resources.cheatSheetBucket);
      const read = new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [bucket.arnForObjects(given(fnId, "the PDF's key", resources.cheatSheetKey))],
      });
      // A bucket under a customer key: S3 decrypts with it for this role, and only S3 may. The
      // stack's PDF bucket uses SSE-S3 (private-bucket.ts), which needs no grant.
      if (!bucket.encryptionKey) return [read];
      const decrypt = new PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [bucket.encryptionKey.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `s3.${region}.amazonaws.com` } },
      });
      return [read, decrypt];
    }
    case 'emailSend':
      return [
        new PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: [
            given(fnId, 'the sender identity', resources.senderIdentityArn),
            given(fnId, 'the configuration set', resources.configurationSetArn),
          ],
        }),
      ];
    case 'originSecretRead':
      return [
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [given(fnId, 'the origin secret', resources.originSecret).secretArn],
        }),
      ];
    case 'sendingPause':
      return [
        new PolicyStatement({
          actions: [sendingPauseAction],
          resources: [given(fnId, 'the configuration set', resources.configurationSetArn)],
        }),
      ];
    case 'sendQuotaRead':
      // GetAccount has no resource-level permission: IAM takes it on * only.
      // Its own statement (a Sid keeps CDK from merging it with X-Ray's), so it reads as its own grant.
      return [new PolicyStatement({ sid: 'ReadSesSendQuota', actions: ['ses:GetAccount'], resources: ['*'] })];
    case 'sendQueueWrite':
      return [
        new PolicyStatement({
          actions: ['sqs:SendMessage'],
          resources: [given(fnId, 'the send queue', resources.sendQueue).queueArn],
        }),
      ];
  }
}

/** The only action the `sendingPause` grant allows, on the product's configuration set alone. */
export const sendingPauseAction = 'ses:PutConfigurationSetSendingOptions';
