/**
 * The origin secret (behind CloudFront only), read from Secrets Manager once per container: the
 * first invocation fetches it, later ones reuse it. A failed read is not cached, so the next
 * invocation tries again. The stack generates the secret at deployment; it never appears in the
 * repository, the template or the function's configuration (only its ARN does).
 */

import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ProductError } from '../runtime/errors';

// Per client, then per ARN: a process holding clients of two roles (the leads tool's rehearsal)
// reads the secret as each, as separate processes would.
const cache = new WeakMap<SecretsManagerClient, Map<string, Promise<string>>>();

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
  let secrets = cache.get(client);
  if (!secrets) {
    secrets = new Map();
    cache.set(client, secrets);
  }
  let secret = secrets.get(arn);
  if (!secret) {
    const reading = read(client, arn);
    secrets.set(arn, reading);
    reading.catch(() => secrets.delete(arn));
    secret = reading;
  }
  return secret;
}
