/** Reading the SDK's errors: which mean "not there", which mean "no credentials", and a short text for the rest. */

/** The SDK's error names for a resource that does not exist, per service. */
const notFoundNames = new Set([
  'NotFoundException', // SESv2
  'ParameterNotFound', // SSM
  'ResourceNotFoundException', // DynamoDB, ACM
]);

export function isNotFound(error: unknown): boolean {
  return error instanceof Error && notFoundNames.has(error.name);
}

/** CloudFormation answers a missing stack with a ValidationError that says so. */
export function isMissingStack(error: unknown): boolean {
  return error instanceof Error && error.name === 'ValidationError' && /does not exist/.test(error.message);
}

/**
 * No credentials anywhere in the default chain (CredentialsProviderError), or a profile that
 * names none; both mean the checks cannot start.
 */
export function isMissingCredentials(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'CredentialsProviderError' ||
    /could not load credentials|credentials? (is|are) (missing|not set)|profile .* (could not be found|not found)/i.test(
      error.message,
    )
  );
}

/** Credentials that exist but that AWS refuses (expired, revoked, a wrong key). */
export function isRefusedCredentials(error: unknown): boolean {
  return (
    error instanceof Error &&
    [
      'ExpiredToken',
      'ExpiredTokenException',
      'InvalidClientTokenId',
      'SignatureDoesNotMatch',
      'UnrecognizedClientException',
    ].includes(error.name)
  );
}

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const message = error.message.split('\n')[0];
  return message && message !== error.name ? `${error.name}: ${message}` : error.name;
}
