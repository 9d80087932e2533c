import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { WebFirewall } from './constructs/web-firewall';

/**
 * The web ACL alone, in us-east-1 (the only region CloudFront takes web ACLs from), for a product
 * stack deployed elsewhere (the web ACL is on by default; `-c waf=false` drops both). The product stack reads its ARN through CDK's
 * cross-region references (`crossRegionReferences`: an SSM parameter in the product's region,
 * written and read by two small CDK functions).
 */
export class WebFirewallStack extends Stack {
  public readonly firewall: WebFirewall;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    this.firewall = new WebFirewall(this, 'WebFirewall');
  }
}
