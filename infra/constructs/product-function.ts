import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import {
  timeoutLeavesRoomToReply,
  type OtherGrant,
  type ProductRoute,
  type ProductTable,
  type TableAccess,
} from '../../core/api/catalogue/routes';
import { replyMarginMs, worstCaseSdkCallMs } from '../../core/config/sdk-timeouts';
import { acknowledgeTracingWildcard, addBundledFunction } from './bundled-function';

export { functionRuntime } from './bundled-function';

/** What the route's `tableAccess` and `grants` name, as resources. */
export interface ProductResources {
  /** Each table a route's `tableAccess` names; a function given none of a table's grants may lack it. */
  readonly tables: Readonly<Partial<Record<ProductTable, ITable>>>;
  /** The requests table's e-mail index, the only index a function may query. */
  readonly emailIndexName: string;
  /** `cheatSheetRead`: the private bucket holding the PDF; with SSE-KMS, S3 may decrypt with its key. */
  readonly cheatSheetBucket: IBucket;
  /** `cheatSheetRead`: the one key that may be read. */
  readonly cheatSheetKey: string;
  /** `emailSend`: SES checks SendEmail against the identity and, when one is named, the configuration set. */
  readonly senderIdentityArn: string;
  readonly configurationSetArn: string;
  /** `originSecretRead`: the secret CloudFront sends as the origin header. */
  readonly originSecret: ISecret;
}

export interface ProductFunctionProps {
  /** Its entry in the route catalogue (core/api/catalogue/routes.ts): entry, memory, timeout, grants. */
  readonly route: ProductRoute;
  readonly resources: ProductResources;
  readonly environment: Readonly<Record<string, string>>;
  /** The stack's customer managed key: the log group is encrypted with it. */
  readonly encryptionKey: IKey;
  /** @default logRetention of infra/constructs/encrypted-log-group.ts: a year */
  readonly logRetention?: RetentionDays;
  /**
   * The repository root: the entry and the lock file are resolved from it.
   *
   * @default process.cwd()
   */
  readonly projectRoot?: string;
  /** @default the route's `entry` under projectRoot */
  readonly entry?: string;
}

/**
 * One route's function: bundled with esbuild, its own role (no AWS managed policy: it may write
 * to its log group and do only what its catalogue entry grants), its own encrypted log group,
 * active tracing.
 */
export class ProductFunction extends Construct {
  public readonly function: NodejsFunction;
  public readonly role: Role;
  public readonly logGroup: LogGroup;
  public readonly timeout: Duration;

  constructor(scope: Construct, id: string, props: ProductFunctionProps) {
    super(scope, id);
    const { route } = props;
    if (!timeoutLeavesRoomToReply(route)) {
      throw new Error(
        `${route.id}: a timeout of ${route.timeoutSeconds} s does not outlast a failing SDK call (${worstCaseSdkCallMs} ms) by ${replyMarginMs} ms`,
      );
    }
    this.timeout = Duration.seconds(route.timeoutSeconds);
    // Named as before the catalogue: the monitoring names the function's alarms by this id.
    const built = addBundledFunction(this, route.id, {
      entry: route.entry,
      entryPath: props.entry,
      projectRoot: props.projectRoot,
      description: route.description,
      memoryMb: route.memoryMb,
      timeout: this.timeout,
      environment: props.environment,
      encryptionKey: props.encryptionKey,
      logRetention: props.logRetention,
    });
    this.function = built.function;
    this.role = built.role;
    this.logGroup = built.logGroup;
    for (const statement of [
      ...route.tableAccess.map((access) => tableStatement(access, props.resources)),
      ...route.grants.flatMap((grant) => otherStatements(grant, props.resources, Stack.of(this).region)),
    ]) {
      this.role.addToPolicy(statement);
    }

    acknowledgeTracingWildcard(this.role);
    Validations.of(this.function.node.defaultChild ?? this.function).acknowledge({
      id: 'Serverless::Serverless-LambdaDLQ',
      reason:
        'API Gateway invokes the function synchronously and hands its reply, or its failure, straight back to the visitor, whose page shows the error; a dead-letter queue only receives failed asynchronous invocations, which this function never gets.',
    });
  }
}

function tableStatement(access: TableAccess, resources: ProductResources): PolicyStatement {
  const table = resources.tables[access.table];
  if (!table) throw new Error(`The ${access.table} table is granted but was not given`);
  const tableArn = table.tableArn;
  return new PolicyStatement({
    actions: [...access.actions],
    resources: [access.emailIndex ? `${tableArn}/index/${resources.emailIndexName}` : tableArn],
  });
}

function otherStatements(grant: OtherGrant, resources: ProductResources, region: string): PolicyStatement[] {
  switch (grant) {
    case 'cheatSheetRead': {
      const bucket = resources.cheatSheetBucket;
      const read = new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [bucket.arnForObjects(resources.cheatSheetKey)],
      });
      // The PDF is SSE-KMS: S3 decrypts it with the bucket's key for this role, and only S3 may.
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
          resources: [resources.senderIdentityArn, resources.configurationSetArn],
        }),
      ];
    case 'originSecretRead':
      return [
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [resources.originSecret.secretArn],
        }),
      ];
  }
}
