/**
 * Every context value the stack hands on reaches the construct that uses it: the whole product,
 * synthesized once with a value other than the default for each. The defaults themselves are
 * pinned in test/infra/stack.test.ts; what each construct does with a value, in its own test.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { alarmNamed } from './support/alarms';
import { resourceByPrefix, synthTemplate } from './support/synth';

const template: Template = synthTemplate({
  context: {
    dailySendCap: '5',
    clientHourlySendCap: '20',
    networkHourlySendCap: '40',
    dailySendBudget: 2000,
    clientHourlySaveCap: '25',
    networkHourlySaveCap: '70',
    apiRateLimit: '36',
    apiBurstLimit: '72',
    challenge: 'false',
    canary: 'false',
    requestRetentionDays: '365',
    accountConcurrencyLimit: '2000',
  },
});

const variablesOf = (prefix: string) =>
  (
    resourceByPrefix(template, 'AWS::Lambda::Function', prefix).resource.Properties.Environment as {
      Variables: Record<string, string>;
    }
  ).Variables;

describe('the context, through the stack', () => {
  test('gives the send function the caps and the budget', () => {
    expect(variablesOf('ApiSendCheatSheetSendCheatSheetFunction')).toMatchObject({
      CHEAT_SHEET_DAILY_LIMIT: '5',
      CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '20',
      CHEAT_SHEET_NETWORK_HOURLY_LIMIT: '40',
      CHEAT_SHEET_DAILY_SEND_BUDGET: '2000',
    });
  });

  test('gives the save function the save limits', () => {
    expect(variablesOf('ApiSaveRequestSaveRequestFunction')).toMatchObject({
      CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT: '25',
      CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT: '70',
    });
  });

  test('throttles the API stage at the rate and burst given', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 36, ThrottlingBurstLimit: 72 },
    });
  });

  test('with challenge false, switches the proof of work off for the send, form and challenge functions', () => {
    for (const prefix of [
      'ApiSendCheatSheetSendCheatSheetFunction',
      'ApiSubmitFormSubmitFormFunction',
      'ApiCheatSheetChallengeCheatSheetChallengeFunction',
    ]) {
      expect(variablesOf(prefix)).toMatchObject({ CHEAT_SHEET_CHALLENGE: 'off' });
    }
  });

  test('with canary false, builds no canary, no schedule of it, and no objective reads its runs', () => {
    expect(Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => id.includes('Canary'))).toEqual(
      [],
    );
    expect(JSON.stringify(template.findResources('AWS::CloudWatch::Alarm'))).not.toContain('"Errors"');
  });

  test('with requestRetentionDays, tells both writing functions the days and turns on the requests TTL', () => {
    for (const prefix of ['ApiSaveRequestSaveRequestFunction', 'ApiSendCheatSheetSendCheatSheetFunction']) {
      expect(variablesOf(prefix)).toMatchObject({ REQUEST_RETENTION_DAYS: '365' });
    }
    expect(
      resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').resource.Properties
        .TimeToLiveSpecification,
    ).toEqual({ AttributeName: 'expires_at', Enabled: true });
  });

  test('opens a ticket at 80% of the budget given', () => {
    expect(alarmNamed(template, 'First100DaysSite-SendBudgetRunningOut').Properties.Threshold).toBe(1600);
  });
});
