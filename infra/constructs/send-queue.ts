import { Duration, Names, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { catalogueFunctions } from '../../core/api/catalogue/functions';
import { queuedSendEnvironment } from '../../core/config/function-environment';
import { CatalogueFunction } from './catalogue-function';

/** The queued sender, as the catalogue of functions describes it. */
const queuedSendSpec = catalogueFunctions.queuedSend;

/** The queue's visibility timeout: six times the sender's timeout, as AWS advises for a Lambda event source. */
export const sendQueueVisibilityTimeout = Duration.seconds(6 * queuedSendSpec.timeoutSeconds);

/**
 * How many senders run at once: Lambda's smallest maximum concurrency for a queue. SES's rate,
 * not Lambda's scale, bounds the sends: the pace (lambdas/mail/send-pace.ts) is shared, so two
 * senders together never exceed it, and two leave a new account's ten concurrent executions to the routes.
 */
export const sendQueueMaxConcurrency = 2;

export interface SendQueueProps {
  /** The requests table and its e-mail index: the sender records each send and supersedes older requests. */
  readonly table: ITable;
  readonly emailIndexName: string;
  /** The limits' counters: SES's send pace is one item of it. */
  readonly limitCountersTable: ITable;
  readonly cheatSheetBucket: IBucket;
  readonly cheatSheetKey: string;
  /** @default none: warm containers keep the PDF they read first */
  readonly cheatSheetVersion?: string;
  readonly senderEmail: string;
  readonly senderIdentityArn: string;
  readonly configurationSetName: string;
  readonly configurationSetArn: string;
  /** The leads' key (infra/constructs/leads-key.ts): the log group. */
  readonly encryptionKey: IKey;
  /** @default the repository root (process.cwd()) */
  readonly projectRoot?: string;
  /** @default the catalogue's entry under projectRoot */
  readonly entry?: string;
}

/**
 * The sends the send route accepted while SES's rate had no slot for them
 * (lambdas/requests/send-queue.ts), and the queued sender that sends each once, at the account's
 * own rate (lambdas/queued-send/). The queue's age of its oldest message is the backlog's: the
 * stack's SendBacklog ticket opens when it reaches the delivery objective's 15 minutes.
 *
 * Cost: a standard queue, SQS-managed encryption (free: a message holds a request's id and a claim
 * token, never a name or an address); SendMessage, the event source's polls and deletes stay
 * within SQS's free million requests a month at the product's volumes (about 650,000 long polls a
 * month idle, three requests per queued send). The sender's Lambda time is its SES call and its
 * waits for the pace: at the sandbox's 1 a second, under a second per e-mail.
 */
export class SendQueue extends Construct {
  public readonly queue: Queue;
  public readonly function: NodejsFunction;
  public readonly role: Role;
  public readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: SendQueueProps) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: sendQueueVisibilityTimeout,
      // SQS's longest: a send that keeps failing (SES down for days) waits for it, its age on the ticket.
      retentionPeriod: Duration.days(14),
    });
    const noDeadLetterQueue =
      'No dead-letter queue: a send that keeps failing stays here and comes back every visibility timeout for 14 days, and its age past 15 minutes opens the SendBacklog ticket; a dead-letter queue would take it from the one place the sender retries it, and need a ticket of its own.';
    for (const id of ['Serverless::Serverless-SQSRedrivePolicy', 'AwsSolutions::AwsSolutions-SQS3']) {
      Validations.of(this.queue.node.defaultChild ?? this.queue).acknowledge({ id, reason: noDeadLetterQueue });
    }

    const built = new CatalogueFunction(this, 'Function', {
      fn: queuedSendSpec,
      resources: {
        tables: { requests: props.table, limitCounters: props.limitCountersTable },
        emailIndexName: props.emailIndexName,
        cheatSheetBucket: props.cheatSheetBucket,
        cheatSheetKey: props.cheatSheetKey,
        senderIdentityArn: props.senderIdentityArn,
        configurationSetArn: props.configurationSetArn,
      },
      environment: queuedSendEnvironment({
        tableName: props.table.tableName,
        limitCountersTableName: props.limitCountersTable.tableName,
        cheatSheetBucket: props.cheatSheetBucket.bucketName,
        cheatSheetKey: props.cheatSheetKey,
        senderEmail: props.senderEmail,
        configurationSetName: props.configurationSetName,
        cheatSheetVersion: props.cheatSheetVersion,
      }),
      encryptionKey: props.encryptionKey,
      projectRoot: props.projectRoot,
      entryPath: props.entry,
    });
    this.function = built.function;
    this.role = built.role;
    this.logGroup = built.logGroup;

    this.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: sendQueueMaxConcurrency,
      }),
    );
    const mapping = this.function.node.findChild(`SqsEventSource:${Names.nodeUniqueId(this.queue.node)}`);
    Validations.of(mapping.node.defaultChild ?? mapping).acknowledge({
      id: 'Serverless::Serverless-LambdaEventSourceMappingDestination',
      reason:
        "The queue's mapping: Lambda offers an on-failure destination for stream and Kafka sources only; a message that keeps failing moves to the dead-letter queue by the queue's redrive policy.",
    });
  }
}
