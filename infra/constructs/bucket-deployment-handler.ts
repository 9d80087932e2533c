import { RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { BucketDeployment } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct, IConstruct } from 'constructs';
import { EncryptedLogGroup } from './encrypted-log-group';

/**
 * Settings every BucketDeployment in the stack shares.
 *
 * BucketDeployment runs one Lambda per stack (a SingletonFunction), created by whichever
 * deployment comes first; later deployments reuse it and silently ignore their own `logGroup`
 * and `role`. So the log group and role are stack-level singletons too, found or created here,
 * and every deployment passes the same ones.
 */
export interface BucketDeploymentHandlerSettings {
  /** The handler's logs, encrypted and kept a year like the functions' logs. */
  readonly logGroup: LogGroup;
  /**
   * The handler's role, ours rather than CDK's default so it carries no AWS managed policy:
   * it may write to the log group above; each deployment adds its own bucket grants.
   */
  readonly role: Role;
}

const logGroupId = 'BucketDeploymentHandlerLogGroup';
const roleId = 'BucketDeploymentHandlerRole';
/** CDK names the singleton handler `Custom::CDKBucketDeployment<uuid>` at the stack's root. */
const handlerIdPrefix = 'Custom::CDKBucketDeployment';

/**
 * @param encryptionKey the leads' key (infra/constructs/leads-key.ts): the handler's log group is
 * encrypted with it, as every log group of the stack. The destination buckets use SSE-S3, so the
 * handler needs no key of its own.
 */
export function bucketDeploymentHandlerSettings(
  scope: Construct,
  encryptionKey: IKey,
): BucketDeploymentHandlerSettings {
  const stack = Stack.of(scope);
  const logGroup =
    (stack.node.tryFindChild(logGroupId) as LogGroup | undefined) ??
    new EncryptedLogGroup(stack, logGroupId, {
      encryptionKey,
      // Deployment logs only list the files copied: nothing worth keeping after the stack (Delete
      // also removes the log group when a first create rolls back, so a retry starts clean).
      removalPolicy: RemovalPolicy.DESTROY,
    });
  const existingRole = stack.node.tryFindChild(roleId) as Role | undefined;
  if (existingRole) return { logGroup, role: existingRole };

  const role = new Role(stack, roleId, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: 'Copies the built site and the cheat sheet into their buckets at deploy time.',
  });
  logGroup.grantWrite(role); // also creates the role's DefaultPolicy
  acknowledgeGrantTemplates(role.node.findChild('DefaultPolicy'));
  return { logGroup, role };
}

/**
 * The findings one deployment adds: its destination bucket's objects in the handler's policy,
 * and (once) the handler's runtime, which CDK fixes. Call after creating the deployment.
 */
export function acknowledgeBucketDeployment(deployment: BucketDeployment, destination: Bucket): void {
  const stack = Stack.of(deployment);
  const bucketLogicalId = stack.getLogicalId(destination.node.defaultChild as CfnBucket);
  Validations.of(handlerPolicy(deployment)).acknowledge({
    id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/*]`,
    reason: `The deployment writes and prunes every object of ${destination.node.path}: the keys are the build's file names, known only at deploy time. The grant is CDK's destinationBucket.grantReadWrite, limited to this one bucket.`,
  });

  for (const handler of stack.node.children.filter(isBucketDeploymentHandler)) {
    // Acknowledging again (one call per deployment) only repeats the same entries.
    acknowledgeDeploymentTimeHandler(handler.node.defaultChild ?? handler, 'BucketDeployment');
    const runtimeReason =
      "CDK's BucketDeployment fixes its handler's runtime (Python 3.13 in aws-cdk-lib 2.276) and offers no prop to change it; the handler runs only during deployments and moves forward with aws-cdk-lib upgrades.";
    Validations.of(handler.node.defaultChild ?? handler).acknowledge(
      { id: 'AwsSolutions::AwsSolutions-L1', reason: runtimeReason },
      { id: 'Serverless::Serverless-LambdaLatestVersion', reason: runtimeReason },
    );
  }
}

/**
 * The Serverless findings every CDK-provided handler shares (BucketDeployment's, the
 * invalidation's AwsCustomResource): they run only while CloudFormation deploys, called by it.
 */
export function acknowledgeDeploymentTimeHandler(handlerFunction: IConstruct, name: string): void {
  Validations.of(handlerFunction).acknowledge(
    {
      id: 'Serverless::Serverless-LambdaDLQ',
      reason: `${name}'s handler is called by CloudFormation during a deployment; a failed call fails (or times out) that deployment, where the operator sees it and redeploys. A dead-letter queue would keep an event nobody can replay into CloudFormation.`,
    },
    {
      id: 'Serverless::Serverless-LambdaTracing',
      reason: `${name}'s handler is CDK's, runs only during deployments and makes one or two AWS calls whose outcome CloudFormation's events and the handler's log group record; tracing it would add X-Ray permissions on * to its role for nothing the deployment does not already show.`,
    },
  );
}

/** The handler role's policy, where CDK puts every grant (and so every wildcard finding). */
function handlerPolicy(deployment: BucketDeployment): IConstruct {
  return deployment.handlerRole.node.findChild('DefaultPolicy');
}

function isBucketDeploymentHandler(construct: IConstruct): boolean {
  return construct.node.id.startsWith(handlerIdPrefix);
}

/**
 * The objects of CDK's bootstrap asset bucket as cdk-nag names them: pseudo parameters for an
 * environment-agnostic stack, literal values once the stack has an account and region (with
 * the web ACL, on by default, infra/stacks.ts).
 */
function assetBucketObjects(stack: Stack): string {
  const literalOr = (value: string, pseudoParameter: string) =>
    Token.isUnresolved(value) ? `<${pseudoParameter}>` : value;
  const partition = literalOr(stack.partition, 'AWS::Partition');
  const account = literalOr(stack.account, 'AWS::AccountId');
  const region = literalOr(stack.region, 'AWS::Region');
  return `arn:${partition}:s3:::cdk-hnb659fds-assets-${account}-${region}/*`;
}

/** The wildcards of CDK's own grant templates, the same whichever buckets are involved. */
function acknowledgeGrantTemplates(policy: IConstruct): void {
  const findings: ReadonlyArray<readonly [string, string]> = [
    [
      'AwsSolutions::AwsSolutions-IAM5[Action::s3:GetObject*]',
      "CDK grant template (bucket.grantRead/grantReadWrite): GetObject, GetObjectVersion, GetObjectAttributes... that `aws s3 sync` needs to read the source zip and compare destination objects; limited to the CDK asset bucket and this stack's destination buckets.",
    ],
    [
      'AwsSolutions::AwsSolutions-IAM5[Action::s3:GetBucket*]',
      "CDK grant template (bucket.grantRead/grantReadWrite): bucket location and versioning lookups `aws s3 sync` makes; limited to the CDK asset bucket and this stack's destination buckets.",
    ],
    [
      'AwsSolutions::AwsSolutions-IAM5[Action::s3:List*]',
      "CDK grant template (bucket.grantRead/grantReadWrite): `aws s3 sync` lists the destination to find changed and removed files; limited to the CDK asset bucket and this stack's destination buckets.",
    ],
    [
      'AwsSolutions::AwsSolutions-IAM5[Action::s3:DeleteObject*]',
      "CDK grant template (bucket.grantReadWrite): `aws s3 sync --delete` removes pages and the PDF that the new build no longer has; limited to this stack's destination buckets.",
    ],
    [
      'AwsSolutions::AwsSolutions-IAM5[Action::s3:Abort*]',
      "CDK grant template (bucket.grantReadWrite): AbortMultipartUpload cleans up an interrupted upload of a large file; limited to this stack's destination buckets.",
    ],
    [
      `AwsSolutions::AwsSolutions-IAM5[Resource::${assetBucketObjects(Stack.of(policy))}]`,
      "Objects of the CDK bootstrap asset bucket: the handler reads the zipped build from it, under a content-hash key that is only known at deploy time (Source.asset grants read on the bucket's objects).",
    ],
  ];
  for (const [id, reason] of findings) Validations.of(policy).acknowledge({ id, reason });
}
