import { GetAccountCommand, SESv2Client, type GetAccountCommandOutput } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { checkSesAccount } from '../../../ops/preflight/ses-account-check';

const ses = new SESv2Client({ region: 'eu-west-1' });
const sesMock = mockClient(ses);
const production: Partial<GetAccountCommandOutput> = {
  ProductionAccessEnabled: true,
  SendingEnabled: true,
  SendQuota: { Max24HourSend: 50_000, MaxSendRate: 14, SentLast24Hours: 0 },
};

async function check(account: Partial<GetAccountCommandOutput>, dailySendBudget = 500) {
  sesMock.on(GetAccountCommand).resolves(account);
  const results = await checkSesAccount(ses, { region: 'eu-west-1', dailySendBudget });
  return Object.fromEntries(results.map((result) => [result.name, result]));
}

beforeEach(() => sesMock.reset());

describe('the SES account check', () => {
  test('passes an account out of the sandbox, sending, with a quota above the budget', async () => {
    const results = await check(production);
    expect(Object.values(results).map(({ status }) => status)).toEqual(['PASS', 'PASS', 'PASS', 'PASS']);
  });

  test('warns in the sandbox, saying so and how to leave it', async () => {
    const { 'SES sandbox': sandbox } = await check({ ...production, ProductionAccessEnabled: false });
    expect(sandbox.status).toBe('WARN');
    expect(sandbox.detail).toContain('sandbox');
    expect(sandbox.fix).toContain('aws sesv2 put-account-details --production-access-enabled');
  });

  test('fails when sending is paused', async () => {
    const { 'SES sending': sending } = await check({
      ...production,
      SendingEnabled: false,
      EnforcementStatus: 'SHUTDOWN',
    });
    expect(sending).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('SHUTDOWN') });
  });

  test('fails when the daily send budget reaches the 24-hour quota, naming both numbers', async () => {
    const { 'SES quota': quota } = await check({ ...production, SendQuota: { Max24HourSend: 200 } });
    expect(quota.status).toBe('FAIL');
    expect(quota.detail).toContain('the daily send budget 500 is at or above');
    expect(quota.detail).toContain('quota 200');
  });

  test('in the sandbox, only warns that its quota is below the budget, naming production access as the fix', async () => {
    const { 'SES quota': quota } = await check({
      ...production,
      ProductionAccessEnabled: false,
      SendQuota: { Max24HourSend: 200 },
    });
    expect(quota.status).toBe('WARN');
    expect(quota.detail).toContain("the sandbox's 24-hour quota 200");
    expect(quota.fix).toContain('request production access');
  });

  test('fails when the budget equals the quota', async () => {
    expect((await check({ ...production, SendQuota: { Max24HourSend: 500 } }))['SES quota'].status).toBe('FAIL');
  });

  test('passes an unlimited quota (-1)', async () => {
    expect((await check({ ...production, SendQuota: { Max24HourSend: -1 } }))['SES quota'].status).toBe('PASS');
  });

  test('fails out of the sandbox when the sending rate is below the 2 a second a launch hour needs, naming the request', async () => {
    const { 'SES rate': rate } = await check({ ...production, SendQuota: { Max24HourSend: 50_000, MaxSendRate: 1 } });
    expect(rate.status).toBe('FAIL');
    expect(rate.detail).toContain('5,000 readers in an hour need 2');
    expect(rate.fix).toContain('request a higher sending rate');
  });

  test('in the sandbox, only warns of its 1 a second, naming production access', async () => {
    const { 'SES rate': rate } = await check({
      ...production,
      ProductionAccessEnabled: false,
      SendQuota: { Max24HourSend: 200, MaxSendRate: 1 },
    });
    expect(rate).toMatchObject({ status: 'WARN', fix: expect.stringContaining('request production access') });
  });

  test('passes a rate of 2 a second, the least a launch hour needs', async () => {
    const { 'SES rate': rate } = await check({ ...production, SendQuota: { Max24HourSend: 50_000, MaxSendRate: 2 } });
    expect(rate.status).toBe('PASS');
  });

  test('warns once when the account cannot be read', async () => {
    sesMock.on(GetAccountCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    expect(await checkSesAccount(ses, { region: 'eu-west-1', dailySendBudget: 500 })).toEqual([
      expect.objectContaining({ name: 'SES account', status: 'WARN' }),
    ]);
  });
});
