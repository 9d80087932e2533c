/**
 * Whether a request is the canary's (core/data/canary-mark.ts): its `X-Canary-Mark` verifies under
 * the deployment's secret for its mailbox, now. A request without the header never reads the
 * secret; one whose mark does not verify is a reader's, treated as any other.
 */

import { canaryMarkKeyFrom, isValidCanaryMark } from '../../core/data/canary-mark';
import type { DeploymentSecret } from '../runtime/config';
import type { ApiRequest } from './http-request';

export async function isCanaryRequest(
  request: Pick<ApiRequest, 'canaryMark'>,
  email: string,
  secret: DeploymentSecret,
  loadOriginSecret: (arn: string) => Promise<string>,
  now: Date,
): Promise<boolean> {
  if (request.canaryMark === undefined) return false;
  const deploymentSecret = 'key' in secret ? secret.key : await loadOriginSecret(secret.originSecretArn);
  return isValidCanaryMark(canaryMarkKeyFrom(deploymentSecret), request.canaryMark, email, now);
}
