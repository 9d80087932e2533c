import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement, ServicePrincipal, type PolicyDocument } from 'aws-cdk-lib/aws-iam';
import type { IKey, Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { customerKey } from './customer-key';

export interface EncryptionKeyProps {
  /**
   * What happens to the key when the stack is deleted.
   *
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE: kept when the stack is deleted or the key
   * replaced, since it encrypts log groups and buckets that outlive the stack, whose contents would
   * be unreadable once the key were gone; removed (scheduled for deletion) when the create that
   * made it rolls back, so a failed first deploy leaves no key to pay for and can simply be retried
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The stack's one customer managed KMS key, rotated yearly, for every store that takes one: the
 * log groups, the site and PDF buckets (SSE-KMS) and the alarm topic. Its policy adds to the
 * account's own administration (IAM policies decide who in the account may use it):
 *
 * - CloudWatch Logs of this account and region may use it, for this stack's log groups only (the
 *   `aws:logs:arn` encryption context, AWS's documented condition for Logs: CloudFormation names
 *   every log group of the stack `<stack name>-…`), and nothing more;
 * - CloudFront may decrypt for distributions of this account (`aws:SourceAccount`, and
 *   `aws:SourceArn` on `distribution/*`, `requireSourceAccountOnCloudFront`): naming this
 *   stack's own distribution would make key, bucket and distribution depend on each other in a
 *   circle; the site bucket's policy names this distribution alone;
 * - CloudWatch may use it for this stack's alarms (`aws:SourceAccount`, `aws:SourceArn` on
 *   `alarm:<stack name>-*`), to publish to the alarm topic (monitoring/alarm-topic.ts);
 * - no one may create a KMS grant on it except AWS services acting for an AWS resource, and it
 *   rotates yearly, as every key of the app (customer-key.ts).
 *
 * Readers of the encrypted buckets are granted elsewhere: CloudFront by its origin (the site
 * bucket), the functions' roles by kms:Decrypt through S3 (the PDF), the deployment handler by
 * its bucket grants. The alarm topic's construct lets CloudWatch use it.
 *
 * Cost, at AWS's list prices (us-east-1): 1 USD a month, plus 1 USD a month for each of its first
 * two yearly rotations (so at most 3 USD a month from the third year on), and 0.03 USD per 10,000
 * requests beyond KMS's 20,000 free requests a month. The buckets use S3 Bucket Keys (S3 asks KMS
 * about once per bucket key's lifetime rather than once per object) and CloudWatch Logs and SNS
 * cache their data keys, so a book page's traffic stays within the free requests. One key for
 * every service that takes one, rather than one per service.
 */
export class EncryptionKey extends Construct {
  public readonly key: Key;

  constructor(scope: Construct, id: string, props: EncryptionKeyProps = {}) {
    super(scope, id);
    const stack = Stack.of(this);

    this.key = customerKey(this, 'Key', {
      description: 'First 100 Days site: its log groups, site and PDF buckets, and alarm topic.',
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });

    // AWS's documented statement for encrypting log groups, limited to this account and region.
    this.key.addToResourcePolicy(
      new PolicyStatement({
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
}

/**
 * Adds `aws:SourceAccount` to the statement CDK's S3 origin with origin access control puts in the
 * key's policy for CloudFront (`ArnLike aws:SourceArn distribution/*`), so only distributions of
 * this account may have CloudFront decrypt with it. Call once the distribution exists (its
 * origins are bound in its constructor). Throws when no such statement is found: a CDK version
 * that adds it elsewhere must not leave it unconditioned unnoticed.
 */
export function requireSourceAccountOnCloudFront(key: IKey): void {
  const policy = (key as { policy?: PolicyDocument }).policy;
  // PolicyDocument keeps its statements private; CDK gives no other way to condition one it added.
  const statements = (policy as unknown as { statements?: PolicyStatement[] } | undefined)?.statements ?? [];
  const cloudFront = statements.filter(
    (statement) =>
      statement.effect === Effect.ALLOW &&
      statement.principals.some(
        (principal) => principal instanceof ServicePrincipal && principal.service === 'cloudfront.amazonaws.com',
      ),
  );
  if (cloudFront.length === 0) throw new Error("No CloudFront statement in the key's policy to condition");
  for (const statement of cloudFront)
    statement.addCondition('StringEquals', { 'aws:SourceAccount': Stack.of(key).account });
}
