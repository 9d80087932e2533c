import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { checkAccount, checkRegion, readCallerIdentity } from '../../../ops/preflight/account-check';

const identity = { account: '123456789012', arn: 'arn:aws:iam::123456789012:user/ops' };

describe('the caller identity', () => {
  test('is read from STS GetCallerIdentity', async () => {
    const sts = new STSClient({ region: 'eu-west-1' });
    mockClient(sts).on(GetCallerIdentityCommand).resolves({ Account: identity.account, Arn: identity.arn });
    await expect(readCallerIdentity(sts)).resolves.toEqual(identity);
  });
});

describe('the account check', () => {
  test('passes, naming the account, without a stage', () => {
    expect(checkAccount(identity, undefined)).toMatchObject({
      status: 'PASS',
      detail: expect.stringContaining('123456789012'),
    });
  });

  test("fails when the credentials reach another account than the stage's", () => {
    const result = checkAccount(identity, { name: 'staging', account: '999999999999', region: 'eu-west-1' });
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('stage staging deploys to account 999999999999');
  });

  test("passes when the credentials reach the stage's account", () => {
    expect(checkAccount(identity, { name: 'staging', account: '123456789012', region: 'eu-west-1' }).status).toBe(
      'PASS',
    );
  });
});

describe('the region check', () => {
  test('fails in an opt-in region, naming it', () => {
    const result = checkRegion('af-south-1');
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('CloudFront cannot deliver its standard logs to a bucket in af-south-1');
  });

  test('passes in a region CloudFront delivers logs to', () => {
    expect(checkRegion('eu-west-1').status).toBe('PASS');
  });
});
