import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
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
  funnelVisitorsTable,
  idempotencyTable,
  requestExpiryAttribute,
  requestsTable,
  limitCountersTable,
  type TableDefinition,
} from '../../core/data/tables';
import { acknowledgeBucketDeployment, bucketDeploymentHandlerSettings } from './bucket-deployment-handler';
import { noncurrentVersionExpiration, PrivateBucket, sendEventsToEventBridge } from './private-bucket';

/**
 * How every table of the leads is protected, written once; a table states only what differs.
 *
 * - Retained, with deletion protection: the tables hold readers' names and addresses (the
 *   requests), hashes of them (the limit counters: a SHA-256 of an address can be matched to a
 *   known address) and the replies the functions gave (the idempotency records). Neither a stack
 *   deletion nor a replacement deletes one; losing the counters would reset every address's cap,
 *   losing the idempotency records within a day would let a retried key send again.
 * - Point-in-time recovery, priced per GB of table: TTL keeps the counters and the records small.
 * - The leads' own key, not aws/dynamodb (whose policy lets every principal of the account that may
 *   call DynamoDB decrypt): its policy names who can read a lead (leads-key.ts). Changing the key
 *   of an existing table is an in-place update (SSESpecification: no interruption).
 * - Billed per request: a book page's traffic is far below any provisioned capacity's minimum.
 */
export const tableProtection = {
  billingMode: BillingMode.PAY_PER_REQUEST,
  pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
  encryption: TableEncryption.CUSTOMER_MANAGED,
  deletionProtection: true,
  removalPolicy: RemovalPolicy.RETAIN,
} as const satisfies Partial<TableProps>;

/**
 * The funnel visitors' table (core/data/tables.ts): the day's salt and visitor marks, which must
 * not outlive the day. So it differs from the leads' tables:
 *
 * - No point-in-time recovery: PITR would keep every state of the table, each deleted salt with
 *   it, for 35 days, and a restored salt lets anyone with a suspected visitor's network and user
 *   agent test whether that visitor came that day. TTL and the next day's first visit delete the
 *   salt; no backup may bring it back. Control Tower's CT.DYNAMODB.PR.1 and cdk-nag's
 *   AwsSolutions-DDB3 are accepted on this table alone, for this reason.
 * - Deleted with the stack, no deletion protection: it holds nothing worth keeping, and losing it
 *   loses at most the day's unique visitors (the next visit makes a new salt; a visitor already
 *   counted that day counts once more).
 * - The leads' key, as the other tables: its policy decides who can read the salt (the visit
 *   function and CloudFormation), where an AWS owned key would let any role of the account allowed
 *   dynamodb:GetItem read it; and it is the key the stack already pays for, so it adds nothing.
 * - Billed per request, as the others: 0 USD at rest (a day's items are a few KB).
 */
export const funnelVisitorsTableSettings = {
  billingMode: BillingMode.PAY_PER_REQUEST,
  pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
  encryption: TableEncryption.CUSTOMER_MANAGED,
  deletionProtection: false,
  removalPolicy: RemovalPolicy.DESTROY,
} as const satisfies Partial<TableProps>;

/** Why the funnel visitors' table has no point-in-time recovery: for the rule packs' findings. */
export const funnelVisitorsWithoutBackupReason =
  "It holds only the funnel's daily salt and the day's visitor hashes, which must be gone with the day: point-in-time recovery would keep each deleted salt 35 days, and a restored salt lets anyone with a visitor's network and user agent test whether that visitor came. Losing the table loses at most one day's unique-visitor count.";

/** Name, keys and TTL of a table as `core/data/tables.ts` describes it. */
function tableShape(table: TableDefinition): Pick<TableProps, 'tableName' | 'partitionKey' | 'timeToLiveAttribute'> {
  return {
    tableName: table.name,
    partitionKey: { name: table.partitionKey.name, type: AttributeType.STRING },
    timeToLiveAttribute: table.timeToLiveAttribute,
  };
}

/** A table of the leads: its shape from `core/data/tables.ts`, its protection from tableProtection. */
function leadsTable(
  scope: Construct,
  id: string,
  definition: TableDefinition,
  encryptionKey: IKey,
  differs: Partial<TableProps> = {},
): Table {
  const table = new Table(scope, id, { ...tableShape(definition), ...tableProtection, encryptionKey, ...differs });
  addGlobalIndexes(table, definition);
  return table;
}

function addGlobalIndexes(target: Table, table: TableDefinition): void {
  for (const index of table.globalIndexes) {
    target.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey.name, type: AttributeType.STRING },
      sortKey: index.sortKey && { name: index.sortKey.name, type: AttributeType.STRING },
      ...(index.projection === 'all'
        ? { projectionType: ProjectionType.ALL }
        : index.projection === 'keys-only'
          ? { projectionType: ProjectionType.KEYS_ONLY }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection.include] }),
    });
  }
}

export interface DataProps {
  /**
   * The leads' key (infra/constructs/leads-key.ts): the four tables are encrypted with it, so its
   * policy decides who can read them, and so is the PDF deployment handler's log group. The PDF
   * bucket is not (SSE-S3: infra/constructs/private-bucket.ts).
   */
  readonly encryptionKey: IKey;
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
  /**
   * The requests table's stream (new images), which the mail provider's hand-off reads
   * (lead-handoff.ts): the request item is its outbox. A stream costs nothing itself; its records
   * are encrypted with the table's key and kept 24 hours.
   *
   * @default false
   */
  readonly requestsStream?: boolean;
}

/**
 * What the stack stores: the requests table, the limit counters table (the caps' and the budget's counters), the
 * idempotency records, the cheat-sheet PDF, and the access logs of every bucket and of the distribution, all of
 * which outlive the stack; and the funnel's day-long visitors' table, which does not.
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
  /**
   * `cheat_sheet_funnel_visitors`: the funnel's salt and visitor marks of the day, deleted by TTL at
   * the day's end; no point-in-time recovery, deleted with the stack (funnelVisitorsTableSettings).
   */
  public readonly funnelVisitorsTable: Table;
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

    this.table = leadsTable(this, 'RequestsTable', requestsTable, props.encryptionKey, {
      // Requests expire only when the stage sets a retention (requestRetentionDays).
      ...(props.requestRetentionDays !== undefined && { timeToLiveAttribute: requestExpiryAttribute }),
      ...(props.requestsStream === true && { stream: StreamViewType.NEW_IMAGE }),
    });
    // Its own table, so the requests table holds request items only; TTL deletes each item a day
    // after its newest send, so the retained table empties itself.
    this.limitCountersTable = leadsTable(this, 'SendQuotaTable', limitCountersTable, props.encryptionKey);
    // Its name is fixed, so a retry adopts the retained table; TTL empties it a day after each
    // write (a key's item is ~0.3 KB).
    this.idempotencyTable = leadsTable(this, 'IdempotencyTable', idempotencyTable, props.encryptionKey);
    this.funnelVisitorsTable = new Table(this, 'FunnelVisitorsTable', {
      ...tableShape(funnelVisitorsTable),
      ...funnelVisitorsTableSettings,
      encryptionKey: props.encryptionKey,
    });
    Validations.of(this.funnelVisitorsTable.node.defaultChild ?? this.funnelVisitorsTable).acknowledge({
      id: 'AwsSolutions::AwsSolutions-DDB3',
      reason: funnelVisitorsWithoutBackupReason,
    });

    this.cheatSheetBucket = new PrivateBucket(this, 'CheatSheetBucket', {
      accessLogsBucket: this.accessLogsBucket,
      accessLogsPrefix: 's3/cheat-sheet/',
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
