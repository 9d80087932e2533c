import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  ObjectOwnership,
  type CfnBucket,
  type IBucket,
} from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

/**
 * How long an overwritten or deleted object version is kept: long enough to roll a bad deployment
 * back object by object, short enough that redeploying the site does not grow a bucket forever.
 */
export const noncurrentVersionExpiration = Duration.days(30);

export interface PrivateBucketProps {
  /** Where S3 writes this bucket's server access logs. */
  readonly accessLogsBucket: IBucket;
  /** Key prefix of this bucket's logs in accessLogsBucket, e.g. `s3/site/`. */
  readonly accessLogsPrefix: string;
}

/**
 * A bucket nobody reaches directly: all public access blocked, ACLs disabled, TLS 1.2+ only,
 * encrypted with S3's own keys (SSE-S3), versioned (a bad deployment can be rolled back object by
 * object), server access logs on, every event sent to EventBridge. Old versions expire after 30
 * days so versioning does not grow without bound.
 *
 * SSE-S3, not a customer managed key: the two such buckets (the site's pages, the PDF) hold only
 * what every visitor may download, so a key policy would guard nothing a reader owns, and a key
 * of their own would cost 1 USD a month (3 USD from the third year, with its rotations). Who may
 * read them is the bucket policy's and IAM's answer: CloudFront (OAC) for the site, the function
 * that sends the PDF for the cheat sheet (Control Tower's CT.S3.PR.10, acknowledged in
 * infra/tools/control-tower-exceptions.ts).
 *
 * Kept when the stack is deleted or the bucket replaced (RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
 * CloudFormation's RetainExceptOnCreate); removed when the create that made it rolls back, so a
 * failed first deploy leaves no bucket behind, unless a deployment had already put files in it
 * (CloudFormation deletes only empty buckets; the name is generated, so a retry still works).
 * Deleting it with the stack would need CDK's auto-delete custom resource to empty it first: a
 * Lambda function with the AWS managed policy AWSLambdaBasicExecutionRole and a log group without
 * retention, outside this stack's checks. The contents are build output, so the docs say how to
 * delete a kept bucket by hand.
 */
export class PrivateBucket extends Bucket {
  constructor(scope: Construct, id: string, props: PrivateBucketProps) {
    super(scope, id, {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      encryption: BucketEncryption.S3_MANAGED,
      versioned: true,
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: props.accessLogsPrefix,
      lifecycleRules: [
        {
          noncurrentVersionExpiration,
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    sendEventsToEventBridge(this);
  }
}

/**
 * Turns on S3's EventBridge notifications (every object event on the account's default event
 * bus, where a rule can react or an audit trail can subscribe; Control Tower's CT.S3.PR.4). Set on
 * the CloudFormation resource itself: the L2 `eventBridgeEnabled` prop goes through CDK's
 * notifications custom resource, a Lambda function with an AWS managed policy. Events from AWS
 * services to the default bus cost nothing.
 */
export function sendEventsToEventBridge(bucket: Bucket): void {
  (bucket.node.defaultChild as CfnBucket).notificationConfiguration = {
    eventBridgeConfiguration: { eventBridgeEnabled: true },
  };
}
