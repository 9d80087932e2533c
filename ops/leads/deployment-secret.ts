/**
 * Where the leads tool finds the deployment's secret, which keys every stored hash of an address
 * (core/data/address-hash.ts): erase computes the keyed ids of the address's send counters and
 * suppression entry, rekey writes them. With `--stack NAME`, the stack's `OriginSecretArn` output
 * (the secret CloudFront sends to the API; the leads reader role may read it); without, the
 * functions' own variables (`ORIGIN_SECRET_ARN`, or locally the `CLIENT_ADDRESS_KEY` that
 * `npm start` was given).
 */

import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { addressKeySource, type AddressKeySource } from '../../lambdas/limits/address-key';
import { loadOriginSecret } from '../../lambdas/http/origin-secret';
import { readDeploymentSecret, type DeploymentSecret } from '../../lambdas/runtime/config';
import { readStackOutputs } from './leads-tables';

/** The stack output naming the deployment's secret (infra/stack.ts). */
export const deploymentSecretOutput = 'OriginSecretArn';

/** What the report says when no secret is named. */
export const deploymentSecretMissing =
  "no deployment secret is named: with --stack, the stack's OriginSecretArn output (deploy the stack again if it has none); without, ORIGIN_SECRET_ARN, or locally the CLIENT_ADDRESS_KEY 'npm start' ran with";

export async function deploymentSecretOf(
  cloudFormation: CloudFormationClient,
  stack: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<DeploymentSecret | undefined> {
  if (stack === undefined) return readDeploymentSecret(env);
  const arn = (await readStackOutputs(cloudFormation, stack))[deploymentSecretOutput];
  return arn ? { originSecretArn: arn } : undefined;
}

/** The address hashes' key, read through `secrets` (as the caller's role) when first asked for. */
export function leadsAddressKey(
  secret: DeploymentSecret | undefined,
  secrets: SecretsManagerClient | undefined,
): AddressKeySource | undefined {
  if (!secret) return undefined;
  return addressKeySource(secret, (arn) => loadOriginSecret(secrets ?? new SecretsManagerClient({}), arn));
}
