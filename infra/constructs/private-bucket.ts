import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

export interface PrivateBucketProps {
  /** Where S3 writes this bucket's server access logs. */
  readonly accessLogsBucket: IBucket;
  /** Key prefix of this bucket's logs in accessLogsBucket, e.g. `s3/site/`. */
  readonly accessLogsPrefix: string;
}

/**
 * A bucket nobody reaches directly: all public access blocked, ACLs disabled, TLS 1.2+ only,
 * SSE-S3 encrypted, versioned (a bad deployment can be rolled back object by object), server
 * access logs on. Old versions expire after 30 days so versioning does not grow without bound.
 *
 * Kept when the stack is deleted (RemovalPolicy.RETAIN). Deleting it would need CDK's
 * auto-delete custom resource to empty it first: a Lambda function with the AWS managed policy
 * AWSLambdaBasicExecutionRole and a log group without retention, outside this stack's checks.
 * The contents are build output, so the README says how to delete a kept bucket by hand.
 *
 * SSE-S3 rather than KMS: readers are CloudFront (OAC) and one Lambda role; a customer key
 * would add a key policy and kms:Decrypt grants without protecting anything more, since the
 * objects are the public site and a free PDF.
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
          noncurrentVersionExpiration: Duration.days(30),
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
