import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import {
  AwsCustomResource,
  AwsCustomResourcePolicy,
  Logging,
  PhysicalResourceId,
  type AwsSdkCall,
} from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { acknowledgeDeploymentTimeHandler } from './bucket-deployment-handler';
import { EncryptedLogGroup } from './encrypted-log-group';

export interface DistributionInvalidationProps {
  /** The distribution to invalidate; the handler may invalidate this one alone. */
  readonly distribution: IDistribution;
  /**
   * A digest of what was deployed (e.g. `FileSystem.fingerprint` of the site folder). A new
   * value makes CloudFormation update the resource, which invalidates again; it is also the
   * invalidation's CallerReference.
   */
  readonly contentFingerprint: string;
  /** The leads' key (infra/constructs/leads-key.ts): the handler's log group is encrypted with it. */
  readonly encryptionKey: IKey;
  /**
   * The paths to invalidate.
   *
   * @default ['/*']
   */
  readonly paths?: readonly string[];
}

/**
 * Invalidates a distribution once its new content is deployed. BucketDeployment can do this
 * itself (`distribution` prop), but its handler then gets cloudfront:CreateInvalidation and
 * GetInvalidation on `*`, with no way to scope them. Here one `CreateInvalidation` call runs
 * through an AwsCustomResource whose role may call it on this distribution's ARN only. The
 * caller orders it after the deployment (`node.addDependency`).
 *
 * CloudFront treats a repeated CallerReference with the same paths as the same invalidation:
 * redeploying content identical to an earlier deployment's does not invalidate again (its
 * pages are `no-cache`, so the edge revalidates them within CachingOptimized's 1 s minimum TTL
 * anyway).
 */
export class DistributionInvalidation extends Construct {
  /** The custom resource that calls CreateInvalidation on create and on update. */
  public readonly resource: AwsCustomResource;
  /**
   * The role of CDK's singleton AwsCustomResource handler, ours so it carries no AWS managed
   * policy: it may write to its log group and invalidate the distribution, nothing else.
   */
  public readonly role: Role;
  /** The handler's logs, encrypted and kept a year like the other functions' logs. */
  public readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: DistributionInvalidationProps) {
    super(scope, id);
    const paths = [...(props.paths ?? ['/*'])];

    this.logGroup = new EncryptedLogGroup(this, 'HandlerLogs', {
      encryptionKey: props.encryptionKey,
      // Only invalidation requests are logged: nothing worth keeping after the stack (Delete also
      // removes the log group when a first create rolls back, so a retry starts clean).
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new Role(this, 'HandlerRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: "Invalidates the site's CloudFront distribution after each deployment of the site.",
    });
    this.logGroup.grantWrite(this.role);

    const invalidate: AwsSdkCall = {
      service: 'CloudFront',
      action: 'createInvalidation',
      parameters: {
        DistributionId: props.distribution.distributionId,
        InvalidationBatch: {
          CallerReference: props.contentFingerprint,
          Paths: { Quantity: paths.length, Items: paths },
        },
      },
      physicalResourceId: PhysicalResourceId.of(`${props.distribution.distributionId}-${props.contentFingerprint}`),
      // The reply is only the invalidation's id and status; nothing to log.
      logging: Logging.withDataHidden(),
    };

    this.resource = new AwsCustomResource(this, 'Resource', {
      resourceType: 'Custom::DistributionInvalidation',
      onCreate: invalidate,
      onUpdate: invalidate,
      policy: AwsCustomResourcePolicy.fromStatements([
        new PolicyStatement({
          actions: ['cloudfront:CreateInvalidation'],
          resources: [props.distribution.distributionArn],
        }),
      ]),
      role: this.role,
      logGroup: this.logGroup,
      // Lambda's built-in SDK has CreateInvalidation: no download of the newest SDK at run time.
      installLatestAwsSdk: false,
      // Said explicitly (Serverless-LambdaDefaultMemorySize): Lambda's smallest size is plenty for
      // one SDK call; more memory would only cost more per deployment.
      memorySize: 128,
    });
    // The singleton handler CDK creates at the stack's root for every AwsCustomResource.
    const handler = Stack.of(this).node.findChild(`AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`);
    acknowledgeDeploymentTimeHandler(handler.node.defaultChild ?? handler, 'The invalidation');
  }
}
