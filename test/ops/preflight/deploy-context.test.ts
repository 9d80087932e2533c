import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, parseDeploymentConfig } from '../../../infra/config';
import { UsageError } from '../../../ops/preflight/command-line';
import { contextLookup, readCdkJson, readDeployContext } from '../../../ops/preflight/deploy-context';

const cdkJson = {
  context: {
    '@aws-cdk/core:bootstrapQualifier': 'custom123',
    stages: {
      staging: {
        account: '111111111111',
        region: 'eu-west-1',
        senderEmail: 'cheatsheet@staging.example.com',
        senderDomain: 'staging.example.com',
        alarmEmail: 'ops@example.com',
        siteUrl: 'https://staging.example.com',
        dailySendBudget: 50,
        waf: true,
      },
      production: {
        account: '222222222222',
        region: 'us-east-1',
        senderEmail: 'prod@example.com',
        siteUrl: 'https://www.example.com',
      },
    },
  },
};

/** What the app itself (infra/app.ts) would read from the same context. */
const appConfigOf = (commandLine: Record<string, string>) =>
  parseDeploymentConfig((key) => ({ ...cdkJson.context, ...commandLine })[key as keyof typeof cdkJson.context]);

describe('the deploy context', () => {
  test("is the app's configuration of cdk.json's context and the -c values", () => {
    const commandLine = { stage: 'staging', dailySendBudget: '70' };
    expect(readDeployContext(cdkJson, commandLine).config).toEqual(appConfigOf(commandLine));
  });

  test("reads a stage's account, region and values from cdk.json's stages", () => {
    const { config } = readDeployContext(cdkJson, { stage: 'staging' });
    expect(config.stage).toEqual({ name: 'staging', account: '111111111111', region: 'eu-west-1' });
    expect([config.senderDomain, config.dailySendBudget, config.waf]).toEqual(['staging.example.com', 50, true]);
  });

  test("takes -c values over the stage's", () => {
    const { config } = readDeployContext(cdkJson, { stage: 'staging', dailySendBudget: '70' });
    expect(config.dailySendBudget).toBe(70);
  });

  test('reads the -c values alone without a stage', () => {
    const { config } = readDeployContext(cdkJson, { senderEmail: 'cli@example.com' });
    expect([config.senderEmail, config.stage]).toEqual(['cli@example.com', undefined]);
  });

  test("refuses an unknown stage with the app's own line", () => {
    expect(() => readDeployContext(cdkJson, { stage: 'qa' })).toThrow(
      new ConfigError([
        'Unknown stage "qa": -c stage takes a key of "stages" in cdk.json (one of staging, production).',
      ]),
    );
  });

  test("refuses a stage missing a value it needs with the app's own line", () => {
    expect(() => readDeployContext(cdkJson, { stage: 'production' })).toThrow(
      'Stage "production" has no alarmEmail: set stages.production.alarmEmail in cdk.json.',
    );
  });

  test("looks up settings the app leaves to CDK, such as the bootstrap qualifier, in cdk.json's context", () => {
    expect(contextLookup(cdkJson, {})('@aws-cdk/core:bootstrapQualifier')).toBe('custom123');
  });
});

describe('reading cdk.json', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'preflight-cdk-json-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  test('returns its JSON', async () => {
    await writeFile(path.join(directory, 'cdk.json'), JSON.stringify(cdkJson));
    expect(await readCdkJson(directory)).toEqual(cdkJson);
  });

  test('is a usage error where there is no cdk.json', async () => {
    await expect(readCdkJson(directory)).rejects.toThrow(UsageError);
  });
});
