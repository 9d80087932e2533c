import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { checkLambdaConcurrency as checkWithRate } from '../../../ops/preflight/lambda-concurrency-check';

const lambda = new LambdaClient({ region: 'eu-west-1' });
const lambdaMock = mockClient(lambda);

const quotaOf = (ConcurrentExecutions: number) =>
  lambdaMock.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions } });

/** The check at the stage's default rate (32 a second, 10 concurrent executions needed) unless given one. */
const checkLambdaConcurrency = (
  client: LambdaClient,
  options: { region: string; accountConcurrencyLimit?: number; apiRateLimit?: number },
) => checkWithRate(client, { apiRateLimit: 32, ...options });

beforeEach(() => lambdaMock.reset());

describe('the Lambda concurrency check', () => {
  test("warns below 100, saying concurrency and the account's number", async () => {
    quotaOf(10);
    const result = await checkLambdaConcurrency(lambda, { region: 'eu-west-1' });
    expect(result.status).toBe('WARN');
    expect(result.detail).toContain('concurrency quota in eu-west-1 is 10');
  });

  test('names the quota request to make and the context value for the alarm', async () => {
    quotaOf(10);
    const { fix } = await checkLambdaConcurrency(lambda, { region: 'eu-west-1' });
    expect(fix).toContain('L-B99A9384');
    expect(fix).toContain('--desired-value 1000');
    expect(fix).toContain('-c accountConcurrencyLimit=10');
  });

  test("fails below what the stage's rate needs, naming both figures and the quota request", async () => {
    quotaOf(10);
    const result = await checkLambdaConcurrency(lambda, { region: 'eu-west-1', apiRateLimit: 40 });
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain("is 10, below the 11 the API's 40 requests a second need");
    expect(result.fix).toContain('L-B99A9384');
  });

  test("only warns at a new account's 10 with the default rate, which needs 10", async () => {
    quotaOf(10);
    expect((await checkLambdaConcurrency(lambda, { region: 'eu-west-1' })).status).toBe('WARN');
  });

  test('passes at 1000', async () => {
    quotaOf(1000);
    expect((await checkLambdaConcurrency(lambda, { region: 'eu-west-1' })).status).toBe('PASS');
  });

  test('warns when accountConcurrencyLimit says another number than the account', async () => {
    quotaOf(1000);
    const result = await checkLambdaConcurrency(lambda, { region: 'eu-west-1', accountConcurrencyLimit: 400 });
    expect(result).toMatchObject({ status: 'WARN', fix: expect.stringContaining('-c accountConcurrencyLimit=1000') });
  });
});
