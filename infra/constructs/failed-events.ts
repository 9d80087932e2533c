import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * The dead-letter queue of the functions no route invokes (the SES events, the unsent check, the
 * pause, the weekly digest): an invocation that still fails after Lambda's two retries lands here,
 * with the event and the error, and the DeadLetters ticket opens. Encrypted by SQS itself (SSE-SQS,
 * free), TLS only, kept 14 days (SQS's longest). Costs nothing at rest: SQS charges per request.
 */
export class FailedEvents extends Construct {
  public readonly queue: Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
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

  /** The function's failed asynchronous invocations (after Lambda's two retries) land in the queue. */
  public catchFailuresOf(fn: IFunction): void {
    fn.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(this.queue) });
  }
}
