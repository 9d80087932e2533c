import { parseDeploymentConfig } from '../../../infra/config';
import { stackNamesOf } from '../../../infra/stacks';
import { readPreflightSettings, stackNameFor } from '../../../ops/preflight/preflight-settings';

const settingsOf = (values: Record<string, unknown>) => {
  const lookup = (key: string) => ({ senderEmail: 'cheatsheet@example.com', ...values })[key];
  return readPreflightSettings(parseDeploymentConfig(lookup), lookup);
};
const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0f6d2a8e-1b2c-4d3e-8f90-a1b2c3d4e5f6';
const staging = {
  stage: 'staging',
  stages: {
    staging: {
      account: '111111111111',
      region: 'eu-west-1',
      alarmEmail: 'ops@example.com',
      siteUrl: 'https://www.example.com',
    },
  },
};

describe('the preflight settings', () => {
  test.each([undefined, 'staging', 'production'])('name the stack as the app does for stage %s', (stage) => {
    expect(stackNameFor(stage)).toBe(stackNamesOf(stage).site);
  });

  test("name a stage's stack First100DaysSite-<stage>", () => {
    expect(settingsOf(staging).stackName).toBe('First100DaysSite-staging');
  });

  test('name the stack First100DaysSite without a stage', () => {
    expect(settingsOf({}).stackName).toBe('First100DaysSite');
  });

  test("carry the stage's account and region", () => {
    expect(settingsOf(staging).stage).toEqual({ name: 'staging', account: '111111111111', region: 'eu-west-1' });
  });

  test('use the sender address as the identity without a sender domain', () => {
    expect(settingsOf({}).senderIdentity).toBe('cheatsheet@example.com');
  });

  test('use the sender domain as the identity when it is set', () => {
    expect(settingsOf({ senderDomain: 'Example.com' }).senderIdentity).toBe('example.com');
  });

  test("take the app's default daily send budget, 10,000", () => {
    expect(settingsOf({}).dailySendBudget).toBe(10_000);
  });

  test("take the alarm's assumed concurrency quota, 1000 unless given", () => {
    expect([
      settingsOf({}).accountConcurrencyLimit,
      settingsOf({ accountConcurrencyLimit: '10' }).accountConcurrencyLimit,
    ]).toEqual([1000, 10]);
  });

  test('read waf and senderIdentityExists as true or false', () => {
    const settings = settingsOf({ waf: 'true', senderIdentityExists: true });
    expect([settings.waf, settings.senderIdentityExists]).toEqual([true, true]);
  });

  test('read the custom domain from domainName and certificateArn', () => {
    expect(settingsOf({ domainName: 'WWW.example.com', certificateArn }).customDomain).toEqual({
      domainName: 'www.example.com',
      certificateArn,
    });
  });

  test("take cdk.json's bootstrap qualifier when it sets one", () => {
    expect(settingsOf({ '@aws-cdk/core:bootstrapQualifier': 'custom123' }).bootstrapQualifier).toBe('custom123');
  });

  test("take CDK's default bootstrap qualifier otherwise", () => {
    expect(settingsOf({}).bootstrapQualifier).toBe('hnb659fds');
  });
});
