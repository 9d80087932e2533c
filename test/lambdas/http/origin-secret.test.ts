/** The origin secret, read from Secrets Manager once per container. */

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { loadOriginSecret } from '../../../lambdas/http/origin-secret';

const secretsMock = mockClient(SecretsManagerClient);
afterEach(() => secretsMock.reset());
afterAll(() => secretsMock.restore());

let arnNumber = 0;
const newArn = () => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:Origin-${++arnNumber}`;

describe('loadOriginSecret', () => {
  test('reads the secret string once and reuses it', async () => {
    secretsMock.on(GetSecretValueCommand).resolves({ SecretString: 'the-secret' });
    const client = new SecretsManagerClient({ region: 'eu-west-1' });
    const arn = newArn();

    expect(await loadOriginSecret(client, arn)).toBe('the-secret');
    expect(await loadOriginSecret(client, arn)).toBe('the-secret');

    expect(secretsMock.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input)).toEqual([
      { SecretId: arn },
    ]);
  });

  test('turns a failed read into OriginSecretUnavailableError and tries again next time', async () => {
    secretsMock.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: 'later' });
    const client = new SecretsManagerClient({ region: 'eu-west-1' });
    const arn = newArn();

    await expect(loadOriginSecret(client, arn)).rejects.toMatchObject({ kind: 'originSecretUnavailable' });
    expect(await loadOriginSecret(client, arn)).toBe('later');
  });
});
