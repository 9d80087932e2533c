/**
 * The key every stored hash of an address is taken under (core/data/address-hash.ts), from the
 * deployment's secret as a function is configured: locally the run's `CLIENT_ADDRESS_KEY`, behind
 * CloudFront the origin secret (`ORIGIN_SECRET_ARN`, read once per container by the caller's
 * loader). Read only when an address is to be hashed, so a function that hashes none (an SES
 * delivery event) never reads the secret.
 */

import { addressHashKeyFrom, type AddressHashKey } from '../../core/data/address-hash';
import type { DeploymentSecret } from '../runtime/config';

/** Answers the address hashes' key; may read the secret, so it is called only when one is needed. */
export type AddressKeySource = () => Promise<AddressHashKey>;

export function addressKeySource(
  secret: DeploymentSecret,
  loadOriginSecret: (arn: string) => Promise<string>,
): AddressKeySource {
  return async () => addressHashKeyFrom('key' in secret ? secret.key : await loadOriginSecret(secret.originSecretArn));
}
