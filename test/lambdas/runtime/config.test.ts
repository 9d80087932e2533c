import { readDeploymentSecret, readSaveRequestConfig, readSendCheatSheetConfig } from '../../../lambdas/runtime/config';

const sendEnv = {
  TABLE_NAME: 'cheat_sheet_requests',
  SEND_QUOTA_TABLE_NAME: 'cheat_sheet_send_quotas',
  CHEAT_SHEET_BUCKET: 'bucket',
  CHEAT_SHEET_KEY: 'mpc-100-day-cheat-sheet.pdf',
  SENDER_EMAIL: 'cheatsheet@example.com',
  CLIENT_ADDRESS_SOURCE: 'source-ip',
  CLIENT_ADDRESS_KEY: 'a-local-key',
};

const saveEnv = {
  TABLE_NAME: 't',
  SEND_QUOTA_TABLE_NAME: 'cheat_sheet_send_quotas',
  CLIENT_ADDRESS_SOURCE: 'source-ip',
  CLIENT_ADDRESS_KEY: 'a-local-key',
};

const behindCloudFront = {
  ...sendEnv,
  CLIENT_ADDRESS_SOURCE: 'cloudfront-viewer-address',
  CLIENT_ADDRESS_KEY: undefined,
  ORIGIN_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:OriginSecret-AbCdEf',
};

describe('function configuration', () => {
  test('reads the send function settings, with the documented limits by default: 3 per address, 10 per client, 30 per network, 10,000 in all', () => {
    expect(readSendCheatSheetConfig(sendEnv)).toEqual({
      tableName: 'cheat_sheet_requests',
      idempotencyTableName: 'cheat_sheet_idempotency',
      limitCountersTableName: 'cheat_sheet_send_quotas',
      bucket: 'bucket',
      key: 'mpc-100-day-cheat-sheet.pdf',
      attachmentFileName: 'mpc-100-day-cheat-sheet.pdf',
      senderEmail: 'cheatsheet@example.com',
      addressDailyCap: 3,
      clientHourlySendCap: 10,
      networkHourlySendCap: 30,
      dailySendBudget: 10_000,
      recipientDomainCheck: true,
      proofOfWork: false,
      clientAddress: { source: 'source-ip', key: 'a-local-key' },
    });
  });

  test.each([
    [undefined, false],
    ['off', false],
    ['on', true],
    [' ON ', true],
  ])('CHEAT_SHEET_CHALLENGE=%j asks for a proof of work: %s (absent means off)', (setting, asked) => {
    const env = { ...sendEnv, ...(setting !== undefined && { CHEAT_SHEET_CHALLENGE: setting }) };
    expect(readSendCheatSheetConfig(env).proofOfWork).toBe(asked);
  });

  test("reads the idempotency table from IDEMPOTENCY_TABLE_NAME, and without it uses the local twin's cheat_sheet_idempotency", () => {
    expect(readSaveRequestConfig({ ...saveEnv, IDEMPOTENCY_TABLE_NAME: 'keys-staging' }).idempotencyTableName).toBe(
      'keys-staging',
    );
    expect(readSaveRequestConfig(saveEnv).idempotencyTableName).toBe('cheat_sheet_idempotency');
    expect(readSendCheatSheetConfig({ ...sendEnv, IDEMPOTENCY_TABLE_NAME: ' ' }).idempotencyTableName).toBe(
      'cheat_sheet_idempotency',
    );
  });

  test('takes the network send cap from CHEAT_SHEET_NETWORK_HOURLY_LIMIT', () => {
    expect(readSendCheatSheetConfig({ ...sendEnv, CHEAT_SHEET_NETWORK_HOURLY_LIMIT: '45' }).networkHourlySendCap).toBe(
      45,
    );
  });

  test('turns the recipient-domain check off only with CHEAT_SHEET_RECIPIENT_DOMAIN_CHECK=off', () => {
    const checkWith = (value: string) =>
      readSendCheatSheetConfig({ ...sendEnv, CHEAT_SHEET_RECIPIENT_DOMAIN_CHECK: value }).recipientDomainCheck;

    expect([checkWith('off'), checkWith('OFF'), checkWith('on'), checkWith('')]).toEqual([false, false, true, true]);
  });

  test('reads the DNS servers of the check from DNS_SERVERS', () => {
    expect(readSendCheatSheetConfig({ ...sendEnv, DNS_SERVERS: '127.0.0.1:5353' }).dnsServers).toBe('127.0.0.1:5353');
  });

  test('takes the client send cap and the daily send budget from their variables', () => {
    const config = readSendCheatSheetConfig({
      ...sendEnv,
      CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '25',
      CHEAT_SHEET_DAILY_SEND_BUDGET: '5000',
    });

    expect([config.clientHourlySendCap, config.dailySendBudget]).toEqual([25, 5000]);
  });

  test.each([
    ['CHEAT_SHEET_CLIENT_HOURLY_LIMIT', '0'],
    ['CHEAT_SHEET_DAILY_SEND_BUDGET', '1.5'],
    ['CHEAT_SHEET_DAILY_SEND_BUDGET', 'lots'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => readSendCheatSheetConfig({ ...sendEnv, [name]: value })).toThrow(`${name} must be a positive integer`);
  });

  test('both functions read REQUEST_RETENTION_DAYS when it is set, and keep requests when it is not', () => {
    expect(readSaveRequestConfig({ ...saveEnv, REQUEST_RETENTION_DAYS: '365' }).requestRetentionDays).toBe(365);
    expect(readSendCheatSheetConfig({ ...sendEnv, REQUEST_RETENTION_DAYS: '365' }).requestRetentionDays).toBe(365);
    expect(readSaveRequestConfig(saveEnv)).not.toHaveProperty('requestRetentionDays');
    expect(readSendCheatSheetConfig(sendEnv)).not.toHaveProperty('requestRetentionDays');
  });

  test.each(['0', '-3', '1.5', 'a year'])('refuses REQUEST_RETENTION_DAYS=%s', (value) => {
    expect(() => readSaveRequestConfig({ ...saveEnv, REQUEST_RETENTION_DAYS: value })).toThrow(
      'REQUEST_RETENTION_DAYS must be a positive integer',
    );
    expect(() => readSendCheatSheetConfig({ ...sendEnv, REQUEST_RETENTION_DAYS: value })).toThrow(
      'REQUEST_RETENTION_DAYS must be a positive integer',
    );
  });

  test('behind CloudFront, trusts the viewer address with the origin secret, needing no local key', () => {
    expect(readSendCheatSheetConfig(behindCloudFront).clientAddress).toEqual({
      source: 'cloudfront-viewer-address',
      originSecretArn: behindCloudFront.ORIGIN_SECRET_ARN,
    });
  });

  test('refuses the CloudFront source without the origin secret, and an unknown source', () => {
    expect(() => readSendCheatSheetConfig({ ...behindCloudFront, ORIGIN_SECRET_ARN: '' })).toThrow(
      'ORIGIN_SECRET_ARN is not set',
    );
    expect(() => readSendCheatSheetConfig({ ...sendEnv, CLIENT_ADDRESS_SOURCE: 'x-forwarded-for' })).toThrow(
      'CLIENT_ADDRESS_SOURCE must be one of source-ip, cloudfront-viewer-address',
    );
  });

  test('sends through the configuration set named by SES_CONFIGURATION_SET_NAME, or none', () => {
    expect(
      readSendCheatSheetConfig({ ...sendEnv, SES_CONFIGURATION_SET_NAME: 'cheat-sheet' }).configurationSetName,
    ).toBe('cheat-sheet');
    expect(readSendCheatSheetConfig(sendEnv).configurationSetName).toBeUndefined();
  });

  test("attaches the PDF under its key's file name, without the key's folders", () => {
    expect(readSendCheatSheetConfig({ ...sendEnv, CHEAT_SHEET_KEY: 'pdf/v2/cheat-sheet.pdf' }).attachmentFileName).toBe(
      'cheat-sheet.pdf',
    );
  });

  test('takes the per-address cap from CHEAT_SHEET_DAILY_LIMIT', () => {
    expect(readSendCheatSheetConfig({ ...sendEnv, CHEAT_SHEET_DAILY_LIMIT: '10' }).addressDailyCap).toBe(10);
  });

  test.each(['0', '-1', '2.5', 'three'])('refuses a per-address cap of %s', (limit) => {
    expect(() => readSendCheatSheetConfig({ ...sendEnv, CHEAT_SHEET_DAILY_LIMIT: limit })).toThrow(
      expect.objectContaining({ kind: 'misconfigured' }),
    );
  });

  test.each(Object.keys(sendEnv))('refuses to send without %s', (name) => {
    expect(() => readSendCheatSheetConfig({ ...sendEnv, [name]: '' })).toThrow(
      expect.objectContaining({ kind: 'misconfigured' }),
    );
  });

  test('reads the save function settings, with the documented save limits by default: 20 per client, 60 per network', () => {
    expect(readSaveRequestConfig(saveEnv)).toEqual({
      tableName: 't',
      idempotencyTableName: 'cheat_sheet_idempotency',
      limitCountersTableName: 'cheat_sheet_send_quotas',
      clientHourlySaveCap: 20,
      networkHourlySaveCap: 60,
      clientAddress: { source: 'source-ip', key: 'a-local-key' },
    });
  });

  test('takes the save caps from their variables', () => {
    const config = readSaveRequestConfig({
      ...saveEnv,
      CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT: '5',
      CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT: '15',
    });

    expect([config.clientHourlySaveCap, config.networkHourlySaveCap]).toEqual([5, 15]);
  });

  test.each(Object.keys(saveEnv))('refuses to save without %s', (name) => {
    expect(() => readSaveRequestConfig({ ...saveEnv, [name]: '' })).toThrow(
      expect.objectContaining({ kind: 'misconfigured' }),
    );
  });
});

describe("the deployment's secret, for a function or tool that identifies no client", () => {
  const arn = behindCloudFront.ORIGIN_SECRET_ARN;

  test('follows CLIENT_ADDRESS_SOURCE when it is set, as the routes do', () => {
    expect(readDeploymentSecret(saveEnv)).toEqual({ source: 'source-ip', key: 'a-local-key' });
    expect(readDeploymentSecret(behindCloudFront)).toEqual({
      source: 'cloudfront-viewer-address',
      originSecretArn: arn,
    });
  });

  test('without it, ORIGIN_SECRET_ARN (the SES events function), else CLIENT_ADDRESS_KEY, else none', () => {
    expect(readDeploymentSecret({ ORIGIN_SECRET_ARN: arn, CLIENT_ADDRESS_KEY: 'k' })).toEqual({ originSecretArn: arn });
    expect(readDeploymentSecret({ CLIENT_ADDRESS_KEY: ' k ' })).toEqual({ key: 'k' });
    expect(readDeploymentSecret({ TABLE_NAME: 't' })).toBeUndefined();
  });
});
