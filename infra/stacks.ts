/**
 * The app's stacks for a configuration: the product stack and, with the web ACL (`waf`, on by
 * default) outside us-east-1, the web ACL's companion stack there; when the product stack's region
 * is known and is not us-east-1, the edge-monitoring stack there (the CloudFront availability alarm); with
 * `githubRepository`, the DeployAccess stack. Used by the
 * app entry and by the tests, so both build the same thing.
 *
 * A named stage (`-c stage=staging`) deploys `First100DaysSite-staging` (and
 * `First100DaysSiteWebFirewall-staging`) to the stage's account and region; `production` keeps
 * the names of the stage-less stacks, so an existing deployment is updated, not replaced.
 *
 * With `waf=false` the product stack is environment-agnostic: `cdk deploy` places it in the
 * account and region of the credentials. With the web ACL (the default) the region decides where
 * the web ACL goes, so the stack takes the region the CDK CLI resolved (CDK_DEFAULT_REGION: from
 * AWS_REGION or the profile) and becomes environment-specific; CDK's cross-region references
 * need an explicit region on both stacks anyway.
 */

import { Tags, Token, type App, type Environment } from 'aws-cdk-lib';
import { ConfigError, contextKeys, type DeploymentConfig } from './config';
import { DeployAccessStack, deployAccessStackName } from './deploy-access-stack';
import { EdgeMonitoringStack } from './edge-monitoring-stack';
import { runbookBaseUrl } from './constructs/monitoring/runbook';
import { CheatSheetSiteStack, type CheatSheetSiteStackProps } from './stack';
import { WebFirewallStack } from './web-firewall-stack';

/** CloudFront's web ACLs and certificates live here, whatever the distribution's stack region. */
export const cloudFrontRegion = 'us-east-1';

export interface ProductStacks {
  readonly site: CheatSheetSiteStack;
  /** Only with the web ACL (`waf`, the default) when the product stack is not in us-east-1. */
  readonly webFirewall?: WebFirewallStack;
  /** The CloudFront 5xx alarm, in us-east-1, when the product stack is known to be elsewhere. */
  readonly edgeMonitoring?: EdgeMonitoringStack;
}

/** The stack-less names, kept by the `production` stage. */
export const productStackName = 'First100DaysSite';
/** The stage whose stacks keep the stage-less names, so the deployment made before stages is updated. */
export const unsuffixedStage = 'production';

/** Every resource carries `project`, and, when a stage is named, `stage` (cost reports, IAM conditions). */
export const tagKeys = { project: 'project', stage: 'stage' } as const;
export const projectName = 'first-100-days-site';

/** The stacks' names for a stage (none: today's names). */
export function stackNamesOf(stage?: string): {
  readonly site: string;
  readonly webFirewall: string;
  readonly edgeMonitoring: string;
} {
  const suffix = stage === undefined || stage === unsuffixedStage ? '' : `-${stage}`;
  return {
    site: `${productStackName}${suffix}`,
    webFirewall: `${productStackName}WebFirewall${suffix}`,
    edgeMonitoring: `${productStackName}EdgeMonitoring${suffix}`,
  };
}

export interface ProductStacksOptions extends Omit<CheatSheetSiteStackProps, 'config' | 'webAclArn'> {
  readonly stackName: string;
  /** @default `<stackName>WebFirewall` */
  readonly webFirewallStackName?: string;
  /** @default `<stackName>EdgeMonitoring` */
  readonly edgeMonitoringStackName?: string;
  readonly config: DeploymentConfig;
  /**
   * Where the CLI would deploy (CDK_DEFAULT_ACCOUNT, CDK_DEFAULT_REGION); read only with `waf`
   * and no explicit `env`.
   */
  readonly deploymentTarget: { readonly account?: string; readonly region?: string };
}

export function createProductStacks(app: App, options: ProductStacksOptions): ProductStacks {
  const { edgeMonitoringStackName, ...siteOptions } = options;
  const product = createSiteStacks(app, siteOptions);
  const region = product.site.region;
  // CloudFront's metrics live in us-east-1 only: a stack known to be elsewhere gets its 5xx alarm
  // there. An environment-agnostic stack keeps the alarm in itself, existing only in us-east-1.
  if (Token.isUnresolved(region) || region === cloudFrontRegion) return product;
  const { stackName, config } = options;
  const edgeMonitoring = new EdgeMonitoringStack(app, edgeMonitoringStackName ?? `${stackName}EdgeMonitoring`, {
    env: { account: product.site.account, region: cloudFrontRegion },
    crossRegionReferences: true,
    description: `First 100 Days: the CloudFront 5xx alarm of ${stackName}'s distribution (us-east-1, where CloudFront's metrics are).`,
    distribution: product.site.site.distribution,
    alarmNamePrefix: stackName,
    alarmEmail: config.alarmEmail,
    pageEndpoint: config.pageEndpoint,
    runbookBaseUrl: runbookBaseUrl(config.githubRepository),
  });
  return { ...product, edgeMonitoring };
}

/** The product stack and, with `waf` outside us-east-1, the web ACL's stack. */
function createSiteStacks(app: App, options: Omit<ProductStacksOptions, 'edgeMonitoringStackName'>): ProductStacks {
  const { stackName, webFirewallStackName, config, deploymentTarget, env: explicitEnv, ...stackProps } = options;
  if (!config.waf)
    return { site: new CheatSheetSiteStack(app, stackName, { ...stackProps, env: explicitEnv, config }) };

  const { account, region } = explicitEnv ?? deploymentTarget;
  if (!region) {
    throw new ConfigError([
      `The web ACL (${contextKeys.waf}, on by default) needs the region the stack is deployed to, and none is known: set AWS_REGION (or a profile with a region) when running cdk, or pass -c ${contextKeys.waf}=false to go without it.`,
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
  const webFirewall = new WebFirewallStack(app, webFirewallStackName ?? `${stackName}WebFirewall`, {
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

export interface AppStacks extends ProductStacks {
  /** Only with `githubRepository`. */
  readonly deployAccess?: DeployAccessStack;
}

export type AppStacksOptions = Omit<
  ProductStacksOptions,
  'stackName' | 'webFirewallStackName' | 'edgeMonitoringStackName' | 'env'
>;

/**
 * Everything the app entry builds for a configuration: the stage's (or today's) product stacks in
 * the stage's account and region, the DeployAccess stack when a repository is given, and the tags.
 */
export function createAppStacks(app: App, options: AppStacksOptions): AppStacks {
  const { config } = options;
  const stage = config.stage;
  const names = stackNamesOf(stage?.name);
  const env = stage && { account: stage.account, region: stage.region };
  const product = createProductStacks(app, {
    ...options,
    stackName: names.site,
    webFirewallStackName: names.webFirewall,
    edgeMonitoringStackName: names.edgeMonitoring,
    ...(env && { env }),
  });

  let deployAccess: DeployAccessStack | undefined;
  if (config.githubRepository && stage) {
    deployAccess = new DeployAccessStack(app, deployAccessStackName, {
      env,
      description: `First 100 Days: GitHub's OIDC provider and the deploy role of stage ${stage.name} (once per account).`,
      repository: config.githubRepository,
      environment: stage.name,
      existingProviderArn: config.githubOidcProviderArn,
      // The firewall and edge-monitoring stacks of a stage outside us-east-1 are deployed through that region's bootstrap.
      regions: product.webFirewall || product.edgeMonitoring ? [stage.region, cloudFrontRegion] : [stage.region],
    });
  }

  // With explicitStackTags (cdk.json) these reach every resource, not the stacks' own tags.
  Tags.of(app).add(tagKeys.project, projectName);
  if (stage) Tags.of(app).add(tagKeys.stage, stage.name);
  return { ...product, ...(deployAccess && { deployAccess }) };
}
