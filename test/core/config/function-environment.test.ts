import { saveRequestEnvironment, sendCheatSheetEnvironment } from '../../../core/config/function-environment';

const sendSettings = {
  tableName: 'cheat_sheet_requests',
  sendQuotaTableName: 'cheat_sheet_send_quotas',
  cheatSheetBucket: 'cheat-sheets',
  cheatSheetKey: 'mpc-100-day-cheat-sheet.pdf',
  senderEmail: 'cheatsheet@example.com',
};

test('gives the save function its table under TABLE_NAME', () => {
  expect(saveRequestEnvironment({ tableName: 'cheat_sheet_requests' })).toEqual({ TABLE_NAME: 'cheat_sheet_requests' });
});

test('gives the send function every setting under the variable names the README documents', () => {
  expect(sendCheatSheetEnvironment({ ...sendSettings, dailyLimit: 5, cheatSheetVersion: 'abc123' })).toEqual({
    TABLE_NAME: 'cheat_sheet_requests',
    SEND_QUOTA_TABLE_NAME: 'cheat_sheet_send_quotas',
    CHEAT_SHEET_BUCKET: 'cheat-sheets',
    CHEAT_SHEET_KEY: 'mpc-100-day-cheat-sheet.pdf',
    SENDER_EMAIL: 'cheatsheet@example.com',
    CHEAT_SHEET_DAILY_LIMIT: '5',
    CHEAT_SHEET_VERSION: 'abc123',
  });
});

test('leaves out the settings that were not given, so the function keeps its defaults', () => {
  const environment = sendCheatSheetEnvironment(sendSettings);

  expect(Object.keys(environment)).not.toContain('CHEAT_SHEET_DAILY_LIMIT');
  expect(Object.keys(environment)).not.toContain('CHEAT_SHEET_VERSION');
});
