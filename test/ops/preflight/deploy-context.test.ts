import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../../../ops/preflight/command-line';
import { mergeDeployContext, readCdkJson } from '../../../ops/preflight/deploy-context';

const cdkJson = {
  context: {
    senderEmail: 'base@example.com',
    waf: false,
    stages: {
      staging: { account: '111111111111', region: 'eu-west-1', senderEmail: 'staging@example.com', waf: true },
      production: { account: 222222222222, region: 'us-east-1', context: { senderEmail: 'prod@example.com' } },
    },
  },
};

describe('the deploy context', () => {
  test("is cdk.json's context and the -c values, the -c values winning", () => {
    const { values, stage } = mergeDeployContext(cdkJson, { senderEmail: 'cli@example.com' });
    expect(values.senderEmail).toBe('cli@example.com');
    expect(values.waf).toBe(false);
    expect(stage).toBeUndefined();
  });

  test("takes the chosen stage's values over cdk.json's context", () => {
    const { values } = mergeDeployContext(cdkJson, { stage: 'staging' });
    expect(values.senderEmail).toBe('staging@example.com');
    expect(values.waf).toBe(true);
  });

  test("takes -c values over the stage's", () => {
    const { values } = mergeDeployContext(cdkJson, { stage: 'staging', senderEmail: 'cli@example.com' });
    expect(values.senderEmail).toBe('cli@example.com');
  });

  test("reads the stage's account and region as its target", () => {
    expect(mergeDeployContext(cdkJson, { stage: 'staging' }).stage).toEqual({
      name: 'staging',
      account: '111111111111',
      region: 'eu-west-1',
    });
  });

  test("reads a stage's context values nested under context too", () => {
    expect(mergeDeployContext(cdkJson, { stage: 'production' }).values.senderEmail).toBe('prod@example.com');
  });

  test('reads a numeric account as its twelve digits', () => {
    expect(mergeDeployContext(cdkJson, { stage: 'production' }).stage?.account).toBe('222222222222');
  });

  test('refuses a stage cdk.json does not define, naming the known ones', () => {
    expect(() => mergeDeployContext(cdkJson, { stage: 'qa' })).toThrow(/stage "qa".*known: staging, production/);
  });

  test('finds stages at the top level of cdk.json as well', () => {
    const { stage } = mergeDeployContext(
      { context: {}, stages: { staging: { region: 'eu-west-2' } } },
      { stage: 'staging' },
    );
    expect(stage?.region).toBe('eu-west-2');
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
