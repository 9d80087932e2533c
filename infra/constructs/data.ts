import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  Table,
  TableEncryption,
  type TableProps,
} from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { buildOutput } from '../../core/build-output';
import { cheatSheetFileName } from '../../core/content/cheat-sheet';
import {
  emailIndex,
  idempotencyTable,
  requestExpiryAttribute,
  requestsTable,
  limitCountersTable,
  type TableDefinition,
} from '../../core/data/tables';
import { acknowledgeBucketDeployment, bucketDeploymentHandlerSettings } from './bucket-deployment-handler';
import { noncurrentVersionExpiration, PrivateBucket, sendEventsToEventBridge } from './private-bucket';

/** Name, keys and TTL of a table as `core/data/tables.ts` describes it; protection is set per table. */
function tableShape(table: TableDefinition): Pick<TableProps, 'tableName' | 'partitionKey' | 'timeToLiveAttribute'> {
  return {
    tableName: table.name,
    partitionKey: { name: table.partitionKey.name, type: AttributeType.STRING },
    timeToLiveAttribute: table.timeToLiveAttribute,
  };
}

function addGlobalIndexes(target: Table, table: TableDefinition): void {
  for (const index of table.globalIndexes) {
    target.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey.name, type: AttributeType.STRING },
      sortKey: index.sortKey && { name: index.sortKey.name, type: AttributeType.STRING },
      projectionType: index.projection === 'all' ? ProjectionType.ALL : ProjectionType.KEYS_ONLY,
    });
  }
}

export interface DataProps {
  /** The stack's customer managed key (infra/constructs/encryption-key.ts): the PDF bucket's SSE-KMS. */
  readonly encryptionKey: IKey;
  /**
   * The leads' own key (infra/constructs/leads-key.ts): both tables are encrypted with it, so its
   * policy decides who can read them.
   */
  readonly tableEncryptionKey: IKey;
  /**
   * The folder holding the generated cheat sheet (`npm run build:pdf` writes it).
   *
   * @default `dist/cheat-sheet` under the repository root (process.cwd())
   */
  readonly cheatSheetDirectory?: string;
  /**
   * How long access logs (S3 server access logs and CloudFront logs) are kept.
   *
   * @default one year: long enough to investigate an incident reported months later
   */
  readonly accessLogsExpiration?: Duration;
  /**
   * Requests expire this many days after they were made: the requests table gets a TTL on
   * `expires_at`, which the functions write when given the same number (Api's `requestRetentionDays`).
   *
   * @default - no TTL: the author keeps the leads until erasing them
   */
  readonly requestRetentionDays?: number;
}

/**
 * What the stack stores: the requests table, the limit counters table (the caps' and the budget's counters), the cheat-sheet
 * PDF, and the access logs of every bucket and of the distribution. All of them outlive the stack.
 */
export class Data extends Construct {
  /** `cheat_sheet_requests`, retained when the stack is deleted. */
  public readonly table: Table;
  /**
   * `cheat_sheet_send_quotas`: the daily cap's counters, one per address (keyed by a hash of it),
   * deleted by TTL once idle; retained when the stack is deleted.
   */
  public readonly limitCountersTable: Table;
  /**
   * `cheat_sheet_idempotency`: the Idempotency-Key records of both JSON routes, each deleted by TTL
   * a day after it was written.
   */
  public readonly idempotencyTable: Table;
  /** The name of the table's e-mail index (`email`, newest `requested_at` first). */
  public readonly emailIndexName: string = emailIndex.name;
  /** Private; only the send function reads from it. Retained when the stack is deleted. */
  public readonly cheatSheetBucket: PrivateBucket;
  /** The PDF's object key in cheatSheetBucket. */
  public readonly cheatSheetKey: string = cheatSheetFileName;
  /** A digest of the PDF's content: changes exactly when a new cheat sheet is deployed. */
  public readonly cheatSheetVersion: string;
  public readonly cheatSheetDeployment: BucketDeployment;
  /** Receives S3 server access logs (prefix `s3/`) and CloudFront logs (prefix `cloudfront/`). */
  public readonly accessLogsBucket: Bucket;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    const cheatSheetDirectory = props.cheatSheetDirectory ?? path.join(process.cwd(), buildOutput.cheatSheetDirectory);
    const pdfPath = path.join(cheatSheetDirectory, this.cheatSheetKey);
    if (!existsSync(pdfPath)) {
      throw new Error(`The cheat sheet ${pdfPath} does not exist: run \`npm run build\` first (it generates the PDF).`);
    }
    this.cheatSheetVersion = createHash('sha256').update(readFileSync(pdfPath)).digest('hex').slice(0, 16);

    this.accessLogsBucket = new Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // CloudFront's standard logs are delivered through ACLs, which BUCKET_OWNER_ENFORCED
      // disables; BUCKET_OWNER_PREFERRED keeps ACLs working and every object this account's.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      // S3 server access logging can only deliver to SSE-S3 buckets, not SSE-KMS ones, so this
      // bucket alone keeps SSE-S3 (Control Tower's CT.S3.PR.10 is accepted here: infra/tools/control-tower-exceptions.ts).
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // Versioned like the other buckets (CT.S3.PR.11): a log deleted by mistake or by an intruder
      // stays recoverable for noncurrentVersionExpiration. The yearly expiry turns each log into
      // such a version, removed 30 days later.
      versioned: true,
      lifecycleRules: [{ expiration: props.accessLogsExpiration ?? Duration.days(365), noncurrentVersionExpiration }],
      // Logs are evidence: they stay after the stack is gone, until the lifecycle expires them;
      // a rolled-back first create removes the bucket it made, so the retry starts clean.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    sendEventsToEventBridge(this.accessLogsBucket);

    this.table = new Table(this, 'RequestsTable', {
      ...tableShape(requestsTable),
      ...(props.requestRetentionDays !== undefined && { timeToLiveAttribute: requestExpiryAttribute }),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The leads' own key, not aws/dynamodb (whose policy lets every principal of the account that
      // may call DynamoDB decrypt): its policy names who can read a lead (leads-key.ts). Changing
      // the key of an existing table is an in-place update (SSESpecification: no interruption).
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: props.tableEncryptionKey,
      deletionProtection: true,
      // The table holds readers' names and addresses: deleting the stack never deletes it.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    addGlobalIndexes(this.table, requestsTable);

    // Its own table, so the requests table holds request items only. Protected like the
    // requests table: the items are pseudonymous (a SHA-256 of an address can be matched to a
    // known address), and losing them would reset every address's cap. Retained, with deletion
    // protection, so neither a stack deletion nor a replacement resets the cap unnoticed; TTL
    // deletes each item a day after its newest send, so the retained table empties itself.
    this.limitCountersTable = new Table(this, 'SendQuotaTable', {
      ...tableShape(limitCountersTable),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // As the requests table: the counters are keyed by hashes of readers' addresses.
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: props.tableEncryptionKey,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Protected like the send quota table: losing it within a day would let a retried key send
    // again. Its name is fixed, so it is retained (a retry adopts it). TTL empties it a day after
    // each write, so PITR (priced per GB of table) costs next to nothing: a key's item is ~0.3 KB.
    this.idempotencyTable = new Table(this, 'IdempotencyTable', {
      ...tableShape(idempotencyTable),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The leads' key, as the other two: its records hold the replies the functions gave, and
      // only the functions (and the leads reader) may read them.
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: props.tableEncryptionKey,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.cheatSheetBucket = new PrivateBucket(this, 'CheatSheetBucket', {
      accessLogsBucket: this.accessLogsBucket,
      accessLogsPrefix: 's3/cheat-sheet/',
      encryptionKey: props.encryptionKey,
    });
    this.cheatSheetDeployment = new BucketDeployment(this, 'CheatSheetDeployment', {
      sources: [Source.asset(cheatSheetDirectory)],
      destinationBucket: this.cheatSheetBucket,
      // Only the PDF, whatever else the build leaves in the folder.
      exclude: ['*'],
      include: [this.cheatSheetKey],
      contentType: 'application/pdf',
      outputObjectKeys: false, // nothing reads the key list back
      ...bucketDeploymentHandlerSettings(this, props.encryptionKey),
    });
    acknowledgeBucketDeployment(this.cheatSheetDeployment, this.cheatSheetBucket);
  }
}
