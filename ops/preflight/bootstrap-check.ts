/**
 * The CDK bootstrap of every environment the app deploys to: the stack's region, and us-east-1
 * too when the stack's region is fixed (a stage, or `waf`) and is another: the web ACL's stack
 * and the edge-monitoring stack (the CloudFront 5xx alarm) live there. Read from the bootstrap's
 * SSM parameter, the same one `cdk deploy` reads first.
 */

import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { cloudFrontRegion } from './aws-clients';
import { describeError, isNotFound } from './aws-errors';
import type { CheckResult } from './check-result';

/** The oldest bootstrap the app's default synthesizer deploys with (aws-cdk-lib's DefaultStackSynthesizer). */
export const minimumBootstrapVersion = 6;

/** `regionFixed`: the product stack is environment-specific (a stage, or waf), so its us-east-1 stacks exist. */
export function bootstrapRegions(stackRegion: string, regionFixed: boolean): string[] {
  return regionFixed && stackRegion !== cloudFrontRegion ? [stackRegion, cloudFrontRegion] : [stackRegion];
}

export async function checkBootstrap(
  ssm: SSMClient,
  { account, region, qualifier }: { account: string; region: string; qualifier: string },
): Promise<CheckResult> {
  const name = `bootstrap ${region}`;
  const parameter = `/cdk-bootstrap/${qualifier}/version`;
  const fix = `npx cdk bootstrap aws://${account}/${region}`;
  try {
    const { Parameter } = await ssm.send(new GetParameterCommand({ Name: parameter }));
    const version = Number(Parameter?.Value);
    if (!Number.isInteger(version) || version < minimumBootstrapVersion) {
      return {
        name,
        status: 'FAIL',
        detail: `${region} is bootstrapped with version ${Parameter?.Value ?? 'unknown'}, older than ${minimumBootstrapVersion}`,
        fix: `${fix} (upgrades it).`,
      };
    }
    return { name, status: 'PASS', detail: `bootstrapped (version ${version})` };
  } catch (error) {
    if (isNotFound(error)) {
      return {
        name,
        status: 'FAIL',
        detail: `${region} is not bootstrapped for CDK (no SSM parameter ${parameter})`,
        fix: `${fix}`,
      };
    }
    return { name, status: 'WARN', detail: `could not read ${parameter} in ${region}: ${describeError(error)}` };
  }
}
