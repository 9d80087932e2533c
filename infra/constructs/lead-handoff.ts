import { CfnOutput, Duration, Names, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption, RedrivePermission } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { catalogueFunctions } from '../../core/api/catalogue/functions';
import {
  doubleOptInOff,
  leadHandoffVariables,
  mailProviderNames,
  maxHandoffAttempts,
} from '../../core/data/mail-provider';
import type { MailProviderConfig } from '../deployment-config';
import { CatalogueFunction } from './catalogue-function';

/** The hand-off function, as the catalogue of functions describes it. */
const leadHandoffSpec = catalogueFunctions.leadHandoff;

/** The queue's visibility timeout: six times the function's timeout, as AWS advises for a Lambda event source. */
export const handoffVisibilityTimeout = Duration.seconds(6 * leadHandoffSpec.timeoutSeconds);

/**
 * Receives before SQS itself moves a message to the dead-letter queue: the schedule's eight
 * attempts (the function moves a message there itself after the eighth, or at once on a stop) and
 * two more for invocations that crashed or timed out before they could set the next attempt's time.
 */
export const handoffMaxReceiveCount = maxHandoffAttempts + 2;

export interface LeadHandoffProps {
  readonly mailProvider: MailProviderConfig;
  /** The requests table, with its stream (Data's `requestsStream`): the outbox. */
  readonly table: ITable;
  /** The leads' key (infra/constructs/leads-key.ts): the log group. */
  readonly encryptionKey: IKey;
  /** @default the repository root (process.cwd()) */
  readonly projectRoot?: string;
  /** @default the catalogue's entry under projectRoot */
  readonly entry?: string;
}

/**
 * Every consenting lead in the author's mail tool, once (lambdas/lead-handoff/). Only with
 * `mailProvider` (infra/stack.ts).
 *
 * The requests table's stream, filtered to inserts that carry a consent, invokes the function,
 * which puts each request's id on the hand-off queue; each message is then one attempt at the
 * provider, retried on the Standard Webhooks schedule by changing the message's visibility, and
 * moved to the dead-letter queue when it must stop or has failed for a day: the stack's DeadLetters
 * alarm watches that queue, the operator's ticket. Why a stream and not the save function sending the message: the item and
 * the stream record are written together, so a lead saved is a lead handed off even when the save
 * function dies after its PutItem; and a Lambda event source reads the stream free of charge
 * (EventBridge Pipes would pay for its polling, about 1.60 USD a month).
 *
 * The provider's key lives in a Secrets Manager secret the stack creates empty (CloudFormation
 * creates no SSM SecureString parameter, and a plain String parameter would put the key in the
 * clear): `aws secretsmanager put-secret-value` sets it (docs/deploy.md). Cost: the secret
 * 0.40 USD a month; the queues within SQS's free million requests (about 650,000 a month of the
 * event source's long polls); Lambda and the stream's reads within their free tiers.
 */
export class LeadHandoff extends Construct {
  /** Holds the provider's API key (or the webhook's signing secret): empty until the operator sets it. */
  public readonly secret: CfnSecret;
  public readonly queue: Queue;
  public readonly deadLetterQueue: Queue;
  public readonly function: NodejsFunction;
  public readonly role: Role;
  public readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: LeadHandoffProps) {
    super(scope, id);
    const { mailProvider } = props;
    if (props.table.tableStreamArn === undefined) {
      throw new Error(
        "The lead hand-off reads the requests table's stream: create the table with Data's requestsStream.",
      );
    }

    // No SecretString and no GenerateSecretString: CloudFormation creates the secret without a value.
    this.secret = new CfnSecret(this, 'ProviderKey', {
      description: `The API key of the author's mail provider (${mailProviderNames[mailProvider.provider]}), or the webhook's signing secret: set it with aws secretsmanager put-secret-value (docs/deploy.md).`,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SMG4',
      reason:
        'Not rotated by AWS: the mail provider issues the key in its own settings, and no AWS rotation function can mint one there. The operator replaces it with put-secret-value; the function reads the new value within five minutes.',
    });

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      // SQS-managed encryption, free: the messages hold a request's id, never a name or an address.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // SQS's longest: two weeks for the operator to fix the key and redrive.
      retentionPeriod: Duration.days(14),
      // Any queue of the account may name it (the default, written out for Control Tower's CT.SQS.PR.1):
      // naming the hand-off queue alone would make the two queues refer to each other, a cycle.
      redriveAllowPolicy: { redrivePermission: RedrivePermission.ALLOW_ALL },
    });
    const deadLetterReason =
      'It is the dead-letter queue: the DeadLetters alarm on it is the ticket, and the operator redrives it to the hand-off queue once the cause is fixed.';
    Validations.of(this.deadLetterQueue.node.defaultChild ?? this.deadLetterQueue).acknowledge({
      id: 'Serverless::Serverless-SQSRedrivePolicy',
      reason: deadLetterReason,
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: handoffVisibilityTimeout,
      // The schedule spans about 28 hours; a Retry-After may stretch each wait to 12 hours: a week is room.
      retentionPeriod: Duration.days(7),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: handoffMaxReceiveCount },
    });

    // Built from its catalogue entry, as every function: its size, timeout, table grants, logs and tracing.
    const built = new CatalogueFunction(this, 'Function', {
      fn: leadHandoffSpec,
      resources: { tables: { requests: props.table } },
      environment: {
        [leadHandoffVariables.tableName]: props.table.tableName,
        [leadHandoffVariables.mailProvider]: mailProvider.provider,
        ...(mailProvider.provider === 'webhook'
          ? { [leadHandoffVariables.webhookUrl]: mailProvider.webhookUrl }
          : { [leadHandoffVariables.mailProviderList]: mailProvider.list }),
        ...(mailProvider.doubleOptIn === false && { [leadHandoffVariables.doubleOptIn]: doubleOptInOff }),
        [leadHandoffVariables.secretArn]: this.secret.ref,
        [leadHandoffVariables.queueUrl]: this.queue.queueUrl,
        [leadHandoffVariables.deadLetterQueueUrl]: this.deadLetterQueue.queueUrl,
      },
      encryptionKey: props.encryptionKey,
      projectRoot: props.projectRoot,
      entryPath: props.entry,
    });
    this.function = built.function;
    this.role = built.role;
    this.logGroup = built.logGroup;

    this.role.addToPolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.secret.ref] }),
    );
    // The stream's records onto the queue; a stopped hand-off straight into the dead-letter queue.
    this.queue.grantSendMessages(this.role);
    this.deadLetterQueue.grantSendMessages(this.role);

    // Only new requests whose reader ticked the mailing-list box invoke it: Lambda filters before invoking, for nothing.
    this.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        bisectBatchOnError: true,
        retryAttempts: 10,
        reportBatchItemFailures: false,
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: [
          FilterCriteria.filter({
            eventName: ['INSERT'],
            // FilterRule's helpers are typed any: their patterns, written out.
            dynamodb: {
              NewImage: {
                consent: { M: { at: { S: [{ exists: true }] }, mailing_list: { M: { joined: { BOOL: [true] } } } } },
              },
            },
          }),
        ],
      }),
    );
    const queueSource = new SqsEventSource(this.queue, {
      batchSize: 10,
      reportBatchItemFailures: true,
      // The smallest: a provider's rate limit is the bound, not Lambda's scale.
      maxConcurrency: 2,
    });
    this.function.addEventSource(queueSource);
    const queueMapping = this.function.node.findChild(`SqsEventSource:${Names.nodeUniqueId(this.queue.node)}`);
    Validations.of(queueMapping.node.defaultChild ?? queueMapping).acknowledge({
      id: 'Serverless::Serverless-LambdaEventSourceMappingDestination',
      reason:
        "The queue's mapping: Lambda offers an on-failure destination for stream and Kafka sources only; a message that keeps failing moves to the dead-letter queue by the queue's redrive policy, or by the function itself when a hand-off must stop.",
    });

    new CfnOutput(this, 'MailProviderSecretArn', {
      description:
        "Where the mail provider's key goes: aws secretsmanager put-secret-value --secret-id <this> --secret-string <key> (docs/deploy.md).",
      value: this.secret.ref,
    }).overrideLogicalId('MailProviderSecretArn');
    // What the leads tool's erase reads to remove an address at the provider too (ops/leads/mail-provider-removal.ts).
    new CfnOutput(this, 'MailProvider', {
      description: "The author's mail provider every consenting lead is handed to.",
      value: mailProvider.provider,
    }).overrideLogicalId('MailProvider');
    if (mailProvider.provider === 'webhook') {
      new CfnOutput(this, 'MailProviderWebhookUrl', {
        description: 'Where the signed webhook posts each lead.',
        value: mailProvider.webhookUrl,
      }).overrideLogicalId('MailProviderWebhookUrl');
    } else {
      new CfnOutput(this, 'MailProviderList', {
        description: "The provider's form, group or audience the readers join.",
        value: mailProvider.list,
      }).overrideLogicalId('MailProviderList');
    }
    new CfnOutput(this, 'LeadHandoffDeadLetterQueueUrl', {
      description: 'The leads the mail provider did not take: redrive them once the cause is fixed (docs/operate.md).',
      value: this.deadLetterQueue.queueUrl,
    }).overrideLogicalId('LeadHandoffDeadLetterQueueUrl');
  }
}
