import { Stack } from 'aws-cdk-lib';
import type { CfnDistribution, IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { CfnSubscription } from 'aws-cdk-lib/aws-pricingplanmanager';
import type { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/**
 * What the Free plan allows that this stack could exceed, checked at synth. The plan takes AWS
 * managed cache, origin request and response headers policies only, and a web ACL of few rules;
 * the figures are those of CloudFront's flat-rate plan page (docs/deploy.md links it) when this
 * was written: check it before relying on them, and a synth that breaks one names it.
 */
export const freePlanLimits = {
  /** Rules (a managed rule group counts as one) of the plan's web ACL. */
  webAclRules: 5,
  /** Cache behaviours besides the default one. */
  additionalBehaviors: 5,
} as const;

export interface FlatRatePlanProps {
  readonly distribution: IDistribution;
  /** The distribution's one web ACL: the plan covers exactly one distribution and one web ACL. */
  readonly webAcl: CfnWebACL;
}

/**
 * CloudFront's flat-rate Free plan for the distribution and its web ACL (`-c pricingPlan=free`):
 * 0 USD a month for both, whatever the traffic, instead of pay-as-you-go (about 8 USD a month for
 * the web ACL alone). AWS activates a free subscription at once. While it covers the distribution,
 * CloudFront refuses to delete the distribution or to remove its web ACL, so a teardown deletes the
 * subscription first (CloudFormation does, the subscription depending on both).
 */
export class FlatRatePlan extends Construct {
  public readonly subscription: CfnSubscription;

  constructor(scope: Construct, id: string, props: FlatRatePlanProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const distributionArn = stack.formatArn({
      service: 'cloudfront',
      region: '',
      resource: 'distribution',
      resourceName: props.distribution.distributionId,
    });
    this.subscription = new CfnSubscription(this, 'Subscription', {
      planFamily: 'CloudFront',
      planTier: 'FREE',
      usageLevel: 'DEFAULT',
      resourceArns: [distributionArn, props.webAcl.attrArn],
    });
    this.node.addValidation({ validate: () => freePlanProblems(stack, props) });
  }
}

/** Where the distribution or its web ACL breaks the Free plan's limits, one line each. */
export function freePlanProblems(stack: Stack, { distribution, webAcl }: FlatRatePlanProps): string[] {
  const problems: string[] = [];
  const rules = (stack.resolve(webAcl.rules) as unknown[] | undefined) ?? [];
  if (rules.length > freePlanLimits.webAclRules) {
    problems.push(
      `The Free plan's web ACL takes at most ${freePlanLimits.webAclRules} rules; this one has ${rules.length}.`,
    );
  }
  const config = stack.resolve((distribution.node.defaultChild as CfnDistribution).distributionConfig) as {
    defaultCacheBehavior: Record<string, unknown>;
    cacheBehaviors?: Record<string, unknown>[];
  };
  const behaviors = [config.defaultCacheBehavior, ...(config.cacheBehaviors ?? [])];
  if (behaviors.length - 1 > freePlanLimits.additionalBehaviors) {
    problems.push(
      `The Free plan takes at most ${freePlanLimits.additionalBehaviors} behaviours besides the default; this distribution has ${behaviors.length - 1}.`,
    );
  }
  for (const behavior of behaviors) {
    for (const key of ['cachePolicyId', 'originRequestPolicyId', 'responseHeadersPolicyId']) {
      const value = behavior[key];
      // A managed policy is a literal id; one of the stack's own is a reference to its resource.
      if (value !== undefined && typeof value !== 'string') {
        problems.push(
          `The Free plan takes AWS managed policies only: ${typeof behavior.pathPattern === 'string' ? behavior.pathPattern : 'the default behaviour'} has its own ${key.replace(/Id$/, '')}.`,
        );
      }
    }
    if (behavior.lambdaFunctionAssociations) {
      problems.push('The Free plan runs no Lambda@Edge: use CloudFront Functions.');
    }
  }
  return problems;
}
