import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { type CfnSecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/**
 * A secret Secrets Manager generates when the stack is first deployed, so it is in neither the
 * repository nor the template. CloudFront sends it to the API on every request as an origin
 * custom header (infra/constructs/site.ts, through a CloudFormation dynamic reference resolved at
 * deploy time), proving the request came through the distribution; the send function reads it
 * once per container, checks it, and derives from it the key its per-client counters are hashed
 * with (lambdas/limits/client-address.ts). About 0.40 USD a month.
 */
export class OriginSecret extends Construct {
  public readonly secret: Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'Sent by CloudFront to the cheat-sheet API; keys the per-client send counters.',
      // 64 letters and digits: about 380 bits, and safe in an HTTP header.
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      // Nothing outside the stack depends on it; a new deployment generates a new one.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.secret.node.defaultChild as CfnSecret).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SMG4',
      reason:
        'Not rotated automatically: CloudFront receives the value only when the stack is deployed (a dynamic reference in its origin header), while the function would read a rotated value within minutes, so rotation would refuse every send until the next deployment. It is a shared value between two parts of this stack, readable only by this account, not a credential to another system.',
    });
  }
}
