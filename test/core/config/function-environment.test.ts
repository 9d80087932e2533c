import { saveRequestEnvironment, sendCheatSheetEnvironment } from '../../../core/config/function-environment';

const sendSettings = {
  tableName: 'cheat_sheet_requests',
  limitCountersTableName: 'cheat_sheet_send_quotas',
  cheatSheetBucket: 'cheat-sheets',
  cheatSheetKey: 'mpc-100-day-cheat-sheet.pdf',
  senderEmail: 'cheatsheet@example.com',
  clientAddressSource: 'source-ip',
  clientAddressKey: 'local-key',
} as const;

test('gives the save function its tables, its limits and the client-address settings', () => {
  expect(
    saveRequestEnvironment({
      tableName: 'cheat_sheet_requests',
      limitCountersTableName: 'cheat_sheet_send_quotas',
      clientHourlySaveCap: 20,
      networkHourlySaveCap: 60,
      clientAddressSource: 'cloudfront-viewer-address',
      originSecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:origin',
    }),
  ).toEqual({
    TABLE_NAME: 'cheat_sheet_requests',
    SEND_QUOTA_TABLE_NAME: 'cheat_sheet_send_quotas',
    CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT: '20',
    CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT: '60',
    CLIENT_ADDRESS_SOURCE: 'cloudfront-viewer-address',
    ORIGIN_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:origin',
  });
});

test('gives the send function every setting under the variable names docs/architecture.md publishes', () => {
  expect(
    sendCheatSheetEnvironment({
      ...sendSettings,
      addressDailyCap: 5,
      clientHourlySendCap: 20,
      networkHourlySendCap: 40,
      dailySendBudget: 2000,
      recipientDomainCheck: 'off',
      dnsServers: '127.0.0.1:5353',
      configurationSetName: 'cheat-sheet-mail',
      cheatSheetVersion: 'abc123',
    }),
  ).toEqual({
    TABLE_NAME: 'cheat_sheet_requests',
    SEND_QUOTA_TABLE_NAME: 'cheat_sheet_send_quotas',
    CHEAT_SHEET_BUCKET: 'cheat-sheets',
    CHEAT_SHEET_KEY: 'mpc-100-day-cheat-sheet.pdf',
    SENDER_EMAIL: 'cheatsheet@example.com',
    CHEAT_SHEET_DAILY_LIMIT: '5',
    CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '20',
    CHEAT_SHEET_NETWORK_HOURLY_LIMIT: '40',
    CHEAT_SHEET_DAILY_SEND_BUDGET: '2000',
    CHEAT_SHEET_RECIPIENT_DOMAIN_CHECK: 'off',
    DNS_SERVERS: '127.0.0.1:5353',
    CLIENT_ADDRESS_SOURCE: 'source-ip',
    CLIENT_ADDRESS_KEY: 'local-key',
    SES_CONFIGURATION_SET_NAME: 'cheat-sheet-mail',
    CHEAT_SHEET_VERSION: 'abc123',
  });
});

test('behind CloudFront, names the origin secret instead of a key', () => {
  const environment = sendCheatSheetEnvironment({
    ...sendSettings,
    clientAddressKey: undefined,
    clientAddressSource: 'cloudfront-viewer-address',
    originSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:Origin',
  });

  expect(environment).toMatchObject({
    CLIENT_ADDRESS_SOURCE: 'cloudfront-viewer-address',
    ORIGIN_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:Origin',
  });
  expect(Object.keys(environment)).not.toContain('CLIENT_ADDRESS_KEY');
});

test('leaves out the settings that were not given, so the function keeps its defaults', () => {
  const environment = sendCheatSheetEnvironment(sendSettings);

  for (const variable of [
    'CHEAT_SHEET_DAILY_LIMIT',
    'CHEAT_SHEET_CLIENT_HOURLY_LIMIT',
    'CHEAT_SHEET_DAILY_SEND_BUDGET',
    'SES_CONFIGURATION_SET_NAME',
    'CHEAT_SHEET_VERSION',
  ]) {
    expect(Object.keys(environment)).not.toContain(variable);
  }
});
