import { ArnFormat, DefaultStackSynthesizer, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  ArnPrincipal,
  PolicyDocument,
  PolicyStatement,
  ServicePrincipal,
  type IPrincipal,
  type IRole,
} from 'aws-cdk-lib/aws-iam';
import type { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { accountAdministersTheKey, customerKey, keyAdministrationActions } from './customer-key';

export { keyAdministrationActions };

/** The key statement that lets the DeadLetters tickets' workers read the failed events (allowDeadLetterReading). */
export const deadLetterReadersSid = 'TicketWorkersReadTheDeadLetters';

/** What reading and writing an encrypted table (or queue) takes, through DynamoDB (or SQS). */
export const tableUseActions = [
  'kms:Decrypt',
  'kms:DescribeKey',
  'kms:Encrypt',
  'kms:GenerateDataKey*',
  'kms:ReEncrypt*',
] as const;

export interface LeadsKeyProps {
  /**
   * The one role besides the functions that may read the leads (`leadsReaderRoleArn`): the role
   * the author or operator assumes for `npm run leads -- export` and `erase`.
   *
   * @default - none: only the functions read the leads
   */
  readonly readerRoleArn?: string;
  /**
   * The role that creates and updates the tables (DynamoDB checks the key with its credentials).
   *
   * @default - CloudFormation's execution role of the stack's synthesizer (CDK's bootstrap
   * `cdk-<qualifier>-cfn-exec-role-<account>-<region>`, which only CloudFormation can assume)
   */
  readonly deployerRoleArn?: string;
}

/**
 * The stack's one customer managed key, the leads' key: everything that can hold a reader's data
 * is encrypted with it (the three tables, every log group, the failed events' dead-letter queue),
 * and so are the two alarm topics, since CloudWatch publishes only to a topic under a customer
 * managed key. Its policy, not IAM, answers "who can read the leads". Only these may use it to
 * read or write data, and only through DynamoDB or SQS in this region (`kms:ViaService`):
 *
 * - the functions' roles that read or write the tables (allowTableUse) or send to the queue
 *   (allowQueueUse);
 * - the `leadsReaderRoleArn` role, if given (the tables, and the queue's failed events);
 * - CloudFormation's execution role, which creates and updates the tables (only CloudFormation can
 *   assume it).
 *
 * Besides them, three AWS services may use it for one resource kind each, which no person can act
 * as and none of which reads a table: CloudWatch Logs for this stack's log groups (the
 * `aws:logs:arn` encryption context), CloudWatch for this stack's alarms (`aws:SourceArn`,
 * `aws:SourceAccount`) and EventBridge for this stack's topics (SNS's `aws:sns:topicArn`
 * encryption context), to publish to the topics (monitoring/).
 *
 * The account keeps the key's administration (keyAdministrationActions) but no data action: unlike
 * the AWS managed key aws/dynamodb, whose policy lets every principal of the account that may call
 * DynamoDB decrypt, a role with AWS's `ReadOnlyAccess` (CDK's lookup role among them) can scan the
 * table and gets AccessDenied from KMS. No grant can be created but by AWS services for a resource,
 * as on every key of the app (customer-key.ts); DynamoDB's own grants for the tables are of that kind.
 *
 * The site and PDF buckets are not under it: they hold only public content (the pages and the PDF
 * anyone downloads), so S3's own keys (SSE-S3, free) protect them as well as a key would, and a
 * second key would cost 1 USD a month more (3 USD from the third year).
 *
 * Kept when the stack is deleted or the key replaced (RetainExceptOnCreate, as the stack's other
 * stateful resources): a table whose key is gone can never be read again. Removed (KMS schedules its
 * deletion) when the create that made it rolls back: its policy would name roles that no longer
 * exist, so no retry could use it; the tables that create made are empty, and the preflight names
 * the orphaned key and the commands that clear them (docs/deploy.md, the retry).
 *
 * Cost, at AWS's list prices: 1 USD a month, plus 1 USD a month for each of its first two yearly
 * rotations; DynamoDB caches the table key per caller for 5 minutes, CloudWatch Logs, SNS and SQS
 * cache their data keys, so a book page's traffic stays within KMS's 20,000 free requests a month.
 */
export class LeadsKey extends Construct {
  public readonly key: Key;
  /** The service DynamoDB calls KMS through in this region: the condition on every use. */
  public readonly viaService: string;
  private tableUse?: PolicyStatement;
  private queueUse?: PolicyStatement;
  private deadLetterReading?: PolicyStatement;
  private readonly readerRoleArn?: string;

  constructor(scope: Construct, id: string, props: LeadsKeyProps = {}) {
    super(scope, id);
    const stack = Stack.of(this);
    this.viaService = `dynamodb.${stack.region}.amazonaws.com`;
    this.readerRoleArn = props.readerRoleArn;

    this.key = customerKey(this, 'Key', {
      description:
        "First 100 Days site: the leads' tables, log groups, failed events and alarm topics. Data read only by the functions and the leads reader.",
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      // Given, this policy replaces CDK's default one, whose `kms:*` for the account root lets every
      // IAM principal allowed kms:Decrypt by its own policies use the key.
      policy: new PolicyDocument({ statements: [accountAdministersTheKey()] }),
    });

    const deployer = props.deployerRoleArn ?? cloudFormationExecutionRoleArn(stack);
    this.key.addToResourcePolicy(
      this.throughDynamoDb('TablesCreatedByCloudFormation', [new ArnPrincipal(deployer)], true),
    );
    if (props.readerRoleArn) {
      this.key.addToResourcePolicy(this.throughDynamoDb('LeadsReader', [new ArnPrincipal(props.readerRoleArn)]));
    }

    // AWS's documented statement for encrypting log groups, for this stack's groups alone: the
    // service encrypts and decrypts each group's events in that group's encryption context, so it
    // can use the key for nothing else (a table's data key carries DynamoDB's context, not this one).
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchLogsForThisStacksLogGroups',
        principals: [new ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
        actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
        resources: ['*'],
        conditions: {
          ArnLike: {
            'kms:EncryptionContext:aws:logs:arn': stack.formatArn({
              service: 'logs',
              resource: 'log-group',
              // CloudFormation's generated names start with the stack name: this stack's groups alone.
              resourceName: `${stack.stackName}-*`,
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
  }

  /** Lets a function's role read and write the tables, through DynamoDB only. */
  public allowTableUse(role: IRole): void {
    if (!this.tableUse) {
      this.tableUse = this.throughDynamoDb('FunctionsReadAndWriteTheTables', []);
      this.key.addToResourcePolicy(this.tableUse);
    }
    this.tableUse.addPrincipals(role.grantPrincipal);
  }

  /**
   * Lets a function's role send to (and receive from) a queue under this key, through SQS only;
   * the leads reader, if given, may read the queue's messages too.
   */
  public allowQueueUse(role: IRole): void {
    if (!this.queueUse) {
      const reader = this.readerRoleArn ? [new ArnPrincipal(this.readerRoleArn)] : [];
      this.queueUse = this.through(
        'FunctionsAndTheLeadsReaderUseTheQueue',
        reader,
        `sqs.${Stack.of(this).region}.amazonaws.com`,
      );
      this.key.addToResourcePolicy(this.queueUse);
    }
    this.queueUse.addPrincipals(role.grantPrincipal);
  }

  /**
   * Lets the roles that work the DeadLetters tickets (the leads operator, break glass) read and
   * delete the failed events' messages under this key, through SQS only: a statement of its own
   * (deadLetterReadersSid), so the rehearsal can tell it apart; no rehearsed scenario leaves a
   * message in a dead-letter queue to read (ops/leads/dead-letters.ts has its own test).
   */
  public allowDeadLetterReading(role: IRole): void {
    if (!this.deadLetterReading) {
      this.deadLetterReading = this.through(deadLetterReadersSid, [], `sqs.${Stack.of(this).region}.amazonaws.com`);
      this.key.addToResourcePolicy(this.deadLetterReading);
    }
    this.deadLetterReading.addPrincipals(role.grantPrincipal);
  }

  private throughDynamoDb(sid: string, principals: IPrincipal[], mayCreateGrants = false): PolicyStatement {
    return this.through(sid, principals, this.viaService, mayCreateGrants);
  }

  private through(sid: string, principals: IPrincipal[], viaService: string, mayCreateGrants = false): PolicyStatement {
    return new PolicyStatement({
      sid,
      principals,
      // DynamoDB creates its own grant on the key when CloudFormation creates or re-keys a table.
      actions: [...tableUseActions, ...(mayCreateGrants ? ['kms:CreateGrant'] : [])],
      resources: ['*'],
      conditions: {
        StringEquals: { 'kms:ViaService': viaService, 'kms:CallerAccount': Stack.of(this).account },
      },
    });
  }
}

/** The role CloudFormation deploys the stack with: the default synthesizer's bootstrap role. */
function cloudFormationExecutionRoleArn(stack: Stack): string {
  const synthesizer = stack.synthesizer;
  // The synthesizer's ARN holds ${AWS::Partition}, ${AWS::AccountId} and ${AWS::Region}: Fn::Sub fills them in.
  if (synthesizer instanceof DefaultStackSynthesizer) return Fn.sub(synthesizer.cloudFormationExecutionRoleArn);
  throw new Error('LeadsKey needs deployerRoleArn when the stack does not use the default synthesizer.');
}
