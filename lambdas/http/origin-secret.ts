/**
 * The origin secret (behind CloudFront only), read from Secrets Manager once per container: the
 * first invocation fetches it, later ones reuse it. A failed read is not cached, so the next
 * invocation tries again. The stack generates the secret at deployment; it never appears in the
 * repository, the template or the function's configuration (only its ARN does).
 */

import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ProductError } from '../runtime/errors';

const cache = new Map<string, Promise<string>>();

async function read(client: SecretsManagerClient, arn: string): Promise<string> {
  try {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!SecretString) throw new Error('The secret has no string value');
    return SecretString;
  } catch (error) {
    throw new ProductError('originSecretUnavailable', 'Could not read the origin secret', { cause: error });
  }
}

export function loadOriginSecret(client: SecretsManagerClient, arn: string): Promise<string> {
  let secret = cache.get(arn);
  if (!secret) {
    secret = read(client, arn);
    cache.set(arn, secret);
    secret.catch(() => cache.delete(arn));
  }
  return secret;
}
