/**
 * The app's stacks for a configuration: the product stack and, with `waf` outside us-east-1, the
 * web ACL's companion stack there. Used by the app entry and by the tests, so both build the
 * same thing.
 *
 * Without `waf` the product stack is environment-agnostic, as it always was: `cdk deploy`
 * places it in the account and region of the credentials. With `waf` the region decides where
 * the web ACL goes, so the stack takes the region the CDK CLI resolved (CDK_DEFAULT_REGION: from
 * AWS_REGION or the profile) and becomes environment-specific; CDK's cross-region references
 * need an explicit region on both stacks anyway.
 */

import type { App, Environment } from 'aws-cdk-lib';
import { ConfigError, contextKeys, type DeploymentConfig } from './config';
import { CheatSheetSiteStack, type CheatSheetSiteStackProps } from './stack';
import { WebFirewallStack } from './web-firewall-stack';

/** CloudFront's web ACLs and certificates live here, whatever the distribution's stack region. */
export const cloudFrontRegion = 'us-east-1';

export interface ProductStacks {
  readonly site: CheatSheetSiteStack;
  /** Only with `waf` when the product stack is not in us-east-1. */
  readonly webFirewall?: WebFirewallStack;
}

export interface ProductStacksOptions extends Omit<CheatSheetSiteStackProps, 'config' | 'webAclArn'> {
  readonly stackName: string;
  readonly config: DeploymentConfig;
  /**
   * Where the CLI would deploy (CDK_DEFAULT_ACCOUNT, CDK_DEFAULT_REGION); read only with `waf`
   * and no explicit `env`.
   */
  readonly deploymentTarget: { readonly account?: string; readonly region?: string };
}

export function createProductStacks(app: App, options: ProductStacksOptions): ProductStacks {
  const { stackName, config, deploymentTarget, env: explicitEnv, ...stackProps } = options;
  if (!config.waf)
    return { site: new CheatSheetSiteStack(app, stackName, { ...stackProps, env: explicitEnv, config }) };

  const { account, region } = explicitEnv ?? deploymentTarget;
  if (!region) {
    throw new ConfigError([
      `${contextKeys.waf}=true needs the region the stack is deployed to, and none is known: set AWS_REGION (or a profile with a region) when running cdk.`,
    ]);
  }
  const env: Environment = { account, region };
  if (region === cloudFrontRegion) {
    return { site: new CheatSheetSiteStack(app, stackName, { ...stackProps, config, env }) };
  }
  // With this app's weak cross-stack references (cdk.json), CDK links the two with CloudFormation's
  // Fn::GetStackOutput: no custom resource, and the product stack depends on the firewall stack,
  // so `cdk deploy --all` deploys the firewall first. crossRegionReferences keeps the link
  // working should the references be made strong again (then CDK writes an SSM parameter).
  const webFirewall = new WebFirewallStack(app, `${stackName}WebFirewall`, {
    env: { account, region: cloudFrontRegion },
    crossRegionReferences: true,
    description: `First 100 Days: the AWS WAF web ACL of ${stackName}'s CloudFront distribution (us-east-1).`,
  });
  const site = new CheatSheetSiteStack(app, stackName, {
    ...stackProps,
    config,
    env,
    crossRegionReferences: true,
    webAclArn: webFirewall.firewall.webAclArn,
  });
  return { site, webFirewall };
}
