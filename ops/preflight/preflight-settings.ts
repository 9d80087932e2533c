/**
 * What the checks need from the app's configuration: the stack's name, the sender identity, the
 * custom domain, the firewall switch, the limits and the bootstrap qualifier.
 */

import type { ContextLookup, DeploymentConfig } from '../../infra/config';
import type { StageTarget } from './deploy-context';

/** The product stack's name (infra/stacks.ts `stackNamesOf`); other stages than production carry a suffix. */
export const productStackName = 'First100DaysSite';
export const productionStage = 'production';
/** CDK's default bootstrap qualifier, unless cdk.json sets `@aws-cdk/core:bootstrapQualifier`. */
export const defaultBootstrapQualifier = 'hnb659fds';
export const bootstrapQualifierKey = '@aws-cdk/core:bootstrapQualifier';

export interface PreflightSettings {
  readonly stackName: string;
  readonly stage?: StageTarget;
  /** The SES identity the stack creates or uses: senderDomain when set, else senderEmail. */
  readonly senderIdentity: string;
  /** `senderIdentityExists=true`: the stack uses an existing identity instead of creating it. */
  readonly senderIdentityExists: boolean;
  readonly customDomain?: { readonly domainName: string; readonly certificateArn: string };
  readonly waf: boolean;
  readonly dailySendBudget: number;
  /** The stage's throttle, requests a second: the Lambda concurrency the account must hold follows from it. */
  readonly apiRateLimit: number;
  /** The concurrency quota the account-concurrency alarm assumes (its default when not given). */
  readonly accountConcurrencyLimit: number;
  readonly bootstrapQualifier: string;
}

/**
 * The product stack's name for a stage: the same as infra/stacks.ts's `stackNamesOf(stage).site`
 * (a test holds them equal), kept here so the preflight does not load the CDK constructs.
 */
export function stackNameFor(stage: string | undefined): string {
  return stage === undefined || stage === productionStage ? productStackName : `${productStackName}-${stage}`;
}

export function readPreflightSettings(config: DeploymentConfig, lookup: ContextLookup): PreflightSettings {
  const qualifier = lookup(bootstrapQualifierKey);
  return {
    stackName: stackNameFor(config.stage?.name),
    ...(config.stage !== undefined && { stage: config.stage }),
    senderIdentity: config.senderDomain ?? config.senderEmail,
    senderIdentityExists: config.senderIdentityExists,
    ...(config.customDomain !== undefined && { customDomain: config.customDomain }),
    waf: config.waf,
    dailySendBudget: config.dailySendBudget,
    apiRateLimit: config.apiThrottle.rateLimit,
    accountConcurrencyLimit: config.accountConcurrencyLimit,
    bootstrapQualifier:
      typeof qualifier === 'string' && qualifier.trim() !== '' ? qualifier.trim() : defaultBootstrapQualifier,
  };
}
