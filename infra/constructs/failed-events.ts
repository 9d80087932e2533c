import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IDestination, IFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface FailedEventsProps {
  /**
   * The leads' key (infra/constructs/leads-key.ts): a failed SES event names the reader's address,
   * so the queue is under the key whose policy says who may read a lead. The functions that send
   * to it need its use through SQS (LeadsKey.allowQueueUse).
   */
  readonly encryptionKey: IKey;
}

/**
 * The dead-letter queue of the functions no route invokes (the SES events, the unsent check, the
 * pause, the weekly digest): an invocation that still fails after Lambda's two retries lands here,
 * with the event and the error, and the DeadLetters ticket opens. Encrypted with the leads' key
 * (SQS caches the data key for five minutes: a handful of KMS requests a month), TLS only, kept
 * 14 days (SQS's longest). Costs nothing at rest: SQS charges per request.
 */
export class FailedEvents extends Construct {
  public readonly queue: Queue;

  constructor(scope: Construct, id: string, props: FailedEventsProps) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.KMS,
      encryptionMasterKey: props.encryptionKey,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      // It holds failed events only, which the ticket reports; nothing outlives the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.queue.node.defaultChild ?? this.queue).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SQS3',
      reason: 'It is itself the dead-letter queue of the event functions: nothing further to send its messages to.',
    });
    Validations.of(this.queue.node.defaultChild ?? this.queue).acknowledge({
      id: 'Serverless::Serverless-SQSRedrivePolicy',
      reason:
        'It is itself the dead-letter queue of the event functions: a redrive policy would need a queue of its own, which would need watching in turn.',
    });
  }

  /**
   * The function's failed asynchronous invocations (after Lambda's retries: two unless its entry
   * says otherwise) land in the queue.
   * Its role may send to this queue alone (sqs:SendMessage, what Lambda's destination needs); the
   * key's use is the key policy's (LeadsKey.allowQueueUse), not IAM's: CDK's SqsDestination would
   * add KMS wildcards to the role that the leads' key, which trusts no IAM policy, ignores.
   */
  public catchFailuresOf(fn: IFunction, retryAttempts = 2): void {
    const queue = this.queue;
    const onFailure: IDestination = {
      bind: () => {
        fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));
        return { destination: queue.queueArn };
      },
    };
    fn.configureAsyncInvoke({ retryAttempts, onFailure });
  }
}
