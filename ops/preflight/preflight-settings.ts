/**
 * What the checks need from the merged context, typed: the stack's name, the sender identity, the
 * custom domain, the firewall switch and the limits. A value the app would refuse is a usage error
 * here too, named the same way, so the preflight never checks a deploy that cannot happen.
 */

import { defaultDailySendBudget } from '../../core/config/function-environment';
import { UsageError } from './command-line';
import type { DeployContext, StageTarget } from './deploy-context';

/** The product stack's name (infra/app.ts); other stages than production carry a suffix. */
export const productStackName = 'First100DaysSite';
export const productionStage = 'production';
/** CDK's default bootstrap qualifier, unless cdk.json sets `@aws-cdk/core:bootstrapQualifier`. */
export const defaultBootstrapQualifier = 'hnb659fds';

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
  /** What the operator told the alarm the account's concurrency quota is, when they did. */
  readonly accountConcurrencyLimit?: number;
  readonly bootstrapQualifier: string;
}

export function stackNameFor(stage: string | undefined): string {
  return stage === undefined || stage === productionStage ? productStackName : `${productStackName}-${stage}`;
}

export function readPreflightSettings({ values, stage }: DeployContext): PreflightSettings {
  const text = (key: string): string | undefined => {
    const value = values[key];
    if (value === undefined || value === null) return undefined;
    const trimmed = (typeof value === 'string' ? value : JSON.stringify(value)).trim();
    return trimmed === '' ? undefined : trimmed;
  };
  const flag = (key: string): boolean => {
    const value = text(key)?.toLowerCase();
    if (value === undefined || value === 'false') return false;
    if (value === 'true') return true;
    throw new UsageError(`${key} "${value}" must be true or false, e.g. -c ${key}=true`);
  };
  const positiveWhole = (key: string): number | undefined => {
    const value = text(key);
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!Number.isInteger(number) || number <= 0) {
      throw new UsageError(`${key} "${value}" must be a positive whole number, e.g. -c ${key}=1000`);
    }
    return number;
  };

  const senderEmail = text('senderEmail');
  if (senderEmail === undefined) {
    throw new UsageError(
      'senderEmail is missing: pass the same values as cdk deploy, e.g. -c senderEmail=you@yourdomain.com',
    );
  }
  const domainName = text('domainName')?.toLowerCase();
  const certificateArn = text('certificateArn');
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new UsageError('domainName and certificateArn go together: pass both or neither');
  }
  const accountConcurrencyLimit = positiveWhole('accountConcurrencyLimit');

  return {
    stackName: stackNameFor(stage?.name),
    ...(stage !== undefined && { stage }),
    senderIdentity: text('senderDomain')?.toLowerCase() ?? senderEmail,
    senderIdentityExists: flag('senderIdentityExists'),
    ...(domainName !== undefined && certificateArn !== undefined && { customDomain: { domainName, certificateArn } }),
    waf: flag('waf'),
    dailySendBudget: positiveWhole('dailySendBudget') ?? defaultDailySendBudget,
    ...(accountConcurrencyLimit !== undefined && { accountConcurrencyLimit }),
    bootstrapQualifier: text('@aws-cdk/core:bootstrapQualifier') ?? defaultBootstrapQualifier,
  };
}
