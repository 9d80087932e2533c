import { RemovalPolicy } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * How long every log group of the stack keeps its events: a year, the least Control Tower's
 * CT.CLOUDWATCH.PR.2 accepts, and long enough to trace a reader's report or an incident found
 * months later. At a book page's volume (a few lines per request) storage costs cents a month.
 */
export const logRetention = RetentionDays.ONE_YEAR;

export interface EncryptedLogGroupProps {
  /** The customer managed key CloudWatch Logs encrypts the events with: the leads' key (infra/constructs/leads-key.ts). */
  readonly encryptionKey: IKey;
  /** @default logRetention (one year) */
  readonly retention?: RetentionDays;
  /**
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE: the logs outlive the stack until their
   * retention ends, but a rolled-back create removes the (empty) log group, so the retry starts clean
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * A log group as every function, handler and the API's access logs get one: encrypted with the
 * leads' key, since a function's log may name a request (Control Tower's CT.CLOUDWATCH.PR.3), kept a year.
 */
export class EncryptedLogGroup extends LogGroup {
  constructor(scope: Construct, id: string, props: EncryptedLogGroupProps) {
    super(scope, id, {
      encryptionKey: props.encryptionKey,
      retention: props.retention ?? logRetention,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
  }
}
