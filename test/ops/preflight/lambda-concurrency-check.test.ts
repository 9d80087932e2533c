import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { checkLambdaConcurrency } from '../../../ops/preflight/lambda-concurrency-check';

const lambda = new LambdaClient({ region: 'eu-west-1' });
const lambdaMock = mockClient(lambda);

const quotaOf = (ConcurrentExecutions: number) =>
  lambdaMock.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions } });

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
