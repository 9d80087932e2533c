import { readSaveRequestConfig, readSendCheatSheetConfig } from '../../../lambdas/shared/config';
import { ConfigurationError } from '../../../lambdas/shared/errors';

const sendEnv = {
  TABLE_NAME: 'cheat_sheet_requests',
  SEND_QUOTA_TABLE_NAME: 'cheat_sheet_send_quotas',
  CHEAT_SHEET_BUCKET: 'bucket',
  CHEAT_SHEET_KEY: 'mpc-100-day-cheat-sheet.pdf',
  SENDER_EMAIL: 'cheatsheet@example.com',
};

describe('function configuration', () => {
  test('reads the send function settings, with a daily limit of 3 by default', () => {
    expect(readSendCheatSheetConfig(sendEnv)).toEqual({
      tableName: 'cheat_sheet_requests',
      sendQuotaTableName: 'cheat_sheet_send_quotas',
      bucket: 'bucket',
      key: 'mpc-100-day-cheat-sheet.pdf',
      attachmentFileName: 'mpc-100-day-cheat-sheet.pdf',
      senderEmail: 'cheatsheet@example.com',
      dailyLimit: 3,
    });
  });

  test("attaches the PDF under its key's file name, without the key's folders", () => {
    expect(readSendCheatSheetConfig({ ...sendEnv, CHEAT_SHEET_KEY: 'pdf/v2/cheat-sheet.pdf' }).attachmentFileName).toBe(
      'cheat-sheet.pdf',
    );
  });

  test('takes the daily limit from CHEAT_SHEET_DAILY_LIMIT', () => {
    expect(readSendCheatSheetConfig({ ...sendEnv, CHEAT_SHEET_DAILY_LIMIT: '10' }).dailyLimit).toBe(10);
  });

  test.each(['0', '-1', '2.5', 'three'])('refuses a daily limit of %s', (limit) => {
    expect(() => readSendCheatSheetConfig({ ...sendEnv, CHEAT_SHEET_DAILY_LIMIT: limit })).toThrow(ConfigurationError);
  });

  test.each(Object.keys(sendEnv))('refuses to send without %s', (name) => {
    expect(() => readSendCheatSheetConfig({ ...sendEnv, [name]: '' })).toThrow(ConfigurationError);
  });

  test('the save function needs only TABLE_NAME', () => {
    expect(readSaveRequestConfig({ TABLE_NAME: 't' })).toEqual({ tableName: 't' });
    expect(() => readSaveRequestConfig({})).toThrow(ConfigurationError);
  });
});
