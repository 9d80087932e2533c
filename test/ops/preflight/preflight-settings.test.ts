import { UsageError } from '../../../ops/preflight/command-line';
import { readPreflightSettings, stackNameFor } from '../../../ops/preflight/preflight-settings';

const settingsOf = (values: Record<string, unknown>, stage?: { name: string }) =>
  readPreflightSettings({ values: { senderEmail: 'cheatsheet@example.com', ...values }, stage });

describe('the preflight settings', () => {
  test('name the production stack First100DaysSite', () => {
    expect(stackNameFor('production')).toBe('First100DaysSite');
  });

  test('name another stage First100DaysSite-<stage>', () => {
    expect(stackNameFor('staging')).toBe('First100DaysSite-staging');
  });

  test('name the stack First100DaysSite without a stage', () => {
    expect(settingsOf({}).stackName).toBe('First100DaysSite');
  });

  test('use the sender address as the identity without a sender domain', () => {
    expect(settingsOf({}).senderIdentity).toBe('cheatsheet@example.com');
  });

  test('use the sender domain as the identity when it is set', () => {
    expect(settingsOf({ senderDomain: 'Example.com' }).senderIdentity).toBe('example.com');
  });

  test('default the daily send budget to 500', () => {
    expect(settingsOf({}).dailySendBudget).toBe(500);
  });

  test('read the daily send budget from a -c string', () => {
    expect(settingsOf({ dailySendBudget: '2000' }).dailySendBudget).toBe(2000);
  });

  test('read waf and senderIdentityExists as true or false', () => {
    const settings = settingsOf({ waf: 'true', senderIdentityExists: true });
    expect([settings.waf, settings.senderIdentityExists]).toEqual([true, true]);
  });

  test('read the custom domain from domainName and certificateArn', () => {
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
    expect(settingsOf({ domainName: 'WWW.example.com', certificateArn }).customDomain).toEqual({
      domainName: 'www.example.com',
      certificateArn,
    });
  });

  test("take cdk.json's bootstrap qualifier when it sets one", () => {
    expect(settingsOf({ '@aws-cdk/core:bootstrapQualifier': 'custom123' }).bootstrapQualifier).toBe('custom123');
  });

  test('refuse a context without senderEmail', () => {
    expect(() => readPreflightSettings({ values: {} })).toThrow(/senderEmail is missing/);
  });

  test('refuse a daily send budget that is not a positive whole number', () => {
    expect(() => settingsOf({ dailySendBudget: 'lots' })).toThrow(UsageError);
  });

  test('refuse a waf value other than true or false', () => {
    expect(() => settingsOf({ waf: 'yes' })).toThrow(/waf "yes" must be true or false/);
  });

  test('refuse a domain name without its certificate', () => {
    expect(() => settingsOf({ domainName: 'www.example.com' })).toThrow(/go together/);
  });
});
