/**
 * The provider's key, from the Secrets Manager secret the stack creates empty: read when first
 * needed and kept for five minutes, so a key the operator sets (or corrects after a ticket) is used
 * within five minutes without a deploy. No value yet, or a blank one, is `MissingProviderKeyError`.
 * The hand-off function and the leads tool's erase read it alike.
 */

import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';

/** The secret holds no key yet: the operator must set it. */
export class MissingProviderKeyError extends Error {
  override readonly name = 'MissingProviderKeyError';
}

const keptForMs = 5 * 60 * 1000;

export function providerKeyReader(client: SecretsManagerClient, secretArn: string, now: () => number = Date.now) {
  let cached: { readonly key: string; readonly until: number } | undefined;
  return async function providerKey(): Promise<string> {
    if (cached && cached.until > now()) return cached.key;
    let key: string | undefined;
    try {
      ({ SecretString: key } = await client.send(new GetSecretValueCommand({ SecretId: secretArn })));
    } catch (error) {
      // A secret created without a value has no AWSCURRENT version yet.
      if (error instanceof ResourceNotFoundException) key = undefined;
      else throw error;
    }
    if (!key?.trim()) {
      throw new MissingProviderKeyError(
        "The mail provider's key is not set: put it in the secret (docs/deploy.md, the mail provider).",
      );
    }
    cached = { key: key.trim(), until: now() + keptForMs };
    return cached.key;
  };
}
