/**
 * Whose account the credentials reach (STS GetCallerIdentity, which needs no permission), whether
 * it is the stage's, and whether the region can hold the stack: CloudFront must deliver its
 * standard logs to a bucket there.
 */

import { GetCallerIdentityCommand, type STSClient } from '@aws-sdk/client-sts';
import type { CheckResult } from './check-result';
import { regionsWithoutCloudFrontLogs } from './cloudfront-log-regions';
import type { StageTarget } from './deploy-context';

export interface CallerIdentity {
  readonly account: string;
  readonly arn: string;
}

/** Throws the SDK's error as is: without an identity no other check can run. */
export async function readCallerIdentity(sts: STSClient): Promise<CallerIdentity> {
  const { Account, Arn } = await sts.send(new GetCallerIdentityCommand({}));
  return { account: Account ?? 'unknown', arn: Arn ?? 'unknown' };
}

export function checkAccount(identity: CallerIdentity, stage: StageTarget | undefined): CheckResult {
  if (stage?.account !== undefined && stage.account !== identity.account) {
    return {
      name: 'account',
      status: 'FAIL',
      detail: `the credentials reach account ${identity.account} (${identity.arn}), but stage ${stage.name} deploys to account ${stage.account}`,
      fix: `use credentials for account ${stage.account} (e.g. AWS_PROFILE), or pick the stage of this account.`,
    };
  }
  return { name: 'account', status: 'PASS', detail: `${identity.account} as ${identity.arn}` };
}

export function checkRegion(region: string): CheckResult {
  if (regionsWithoutCloudFrontLogs.has(region)) {
    return {
      name: 'region',
      status: 'FAIL',
      detail: `${region}: CloudFront cannot deliver its standard logs to a bucket in ${region}, and the stack keeps its access logs in its own region`,
      fix: 'deploy to a region CloudFront delivers logs to, e.g. AWS_REGION=eu-west-1 or a stage whose region is not opt-in.',
    };
  }
  return { name: 'region', status: 'PASS', detail: `${region}: CloudFront delivers standard logs to buckets here` };
}
