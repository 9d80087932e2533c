import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface DeadLetterAccessProps {
  /** Who works the DeadLetters tickets: the leads operator role (the Leads workflow) and the break-glass role. */
  readonly roles: readonly IRole[];
  /** The queues `leads dead-letters list|redrive` reads and empties. */
  readonly deadLetterQueues: readonly IQueue[];
  /**
   * The queues a redriven message goes back to (the hand-off's).
   *
   * @default - none
   */
  readonly redriveQueues?: readonly IQueue[];
  /** The functions whose failed invocations redrive invokes again (the event functions). */
  readonly eventFunctions: readonly IFunction[];
}

/**
 * What `npm run leads -- dead-letters list|redrive` needs (ops/leads/dead-letters.ts), given to
 * the roles that work the DeadLetters tickets, so no step of the runbook needs a role nobody
 * creates: read and delete the dead-letter queues' messages (their key, the leads', through the
 * stack's LeadsKey.allowQueueUse), send a hand-off back to its queue, and invoke an event
 * function asynchronously with the event Lambda recorded. Its queues and functions alone.
 */
export class DeadLetterAccess extends Construct {
  constructor(scope: Construct, id: string, props: DeadLetterAccessProps) {
    super(scope, id);
    for (const role of props.roles) {
      // Written out rather than CDK's grants: those add kms:Decrypt to the role for a queue under a
      // key, which the leads' key's own policy already decides (LeadsKey.allowQueueUse), and
      // ChangeMessageVisibility and GetQueueUrl, which the command never calls.
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['sqs:GetQueueAttributes', 'sqs:ReceiveMessage', 'sqs:DeleteMessage'],
          resources: props.deadLetterQueues.map((queue) => queue.queueArn),
        }),
      );
      const redriveQueues = props.redriveQueues ?? [];
      if (redriveQueues.length > 0) {
        role.addToPrincipalPolicy(
          new PolicyStatement({
            actions: ['sqs:SendMessage'],
            resources: redriveQueues.map((queue) => queue.queueArn),
          }),
        );
      }
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['lambda:InvokeFunction'],
          resources: props.eventFunctions.map((fn) => fn.functionArn),
        }),
      );
    }
  }
}
