/**
 * The whole command against a stand-in for AWS (stand-in-aws.ts), reached through the SDK's own
 * AWS_ENDPOINT_URL with made-up keys: in this process for what it prints, then `npm run
 * preflight`'s script itself for its exit codes and its line without credentials.
 */

import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readPlaceholderSpots } from '../../../ops/preflight/content-check';
import { noCredentialsLine, runPreflightCommand } from '../../../ops/preflight/preflight-command';
import { spawnScript } from '../../support/spawned-script';
import { healthyAccount, startStandInAws, type StandInAccount, type StandInAws } from './stand-in-aws';

/** What every stage must name (infra/config.ts requiredStageValues), besides its account. */
const stageValues = { region: 'eu-west-1', alarmEmail: 'ops@example.com', siteUrl: 'https://www.example.com' };

const sdkSettings = ['AWS_ENDPOINT_URL', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION'] as const;
const savedSettings = Object.fromEntries(sdkSettings.map((name) => [name, process.env[name]]));
let standIn: StandInAws | undefined;
let cdkJsonDirectory: string;

const fakeKeys = { AWS_ACCESS_KEY_ID: 'AKIDSTANDIN', AWS_SECRET_ACCESS_KEY: 'stand-in-secret' };
const quietSdk = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

beforeAll(async () => {
  cdkJsonDirectory = await mkdtemp(path.join(os.tmpdir(), 'preflight-'));
  await writeFile(
    path.join(cdkJsonDirectory, 'cdk.json'),
    JSON.stringify({
      context: {
        senderEmail: 'cheatsheet@example.com',
        stages: {
          staging: { ...stageValues, account: '123456789012' },
          elsewhere: { ...stageValues, account: '999999999999' },
          unfinished: { account: '123456789012', region: 'eu-west-1', siteUrl: 'https://www.example.com' },
        },
      },
    }),
  );
  // The author's files with every stand-in replaced (its `placeholder: true` line deleted).
  await cp(path.join(process.cwd(), 'content'), path.join(cdkJsonDirectory, 'content'), { recursive: true });
  for (const file of await readdir(path.join(cdkJsonDirectory, 'content'))) {
    const target = path.join(cdkJsonDirectory, 'content', file);
    await writeFile(target, (await readFile(target, 'utf8')).replace(/^\s*placeholder: true\n/gm, ''));
  }
});

afterAll(() => rm(cdkJsonDirectory, { recursive: true, force: true }));

async function standInFor(account: StandInAccount): Promise<StandInAws> {
  standIn = await startStandInAws(account);
  Object.assign(process.env, { AWS_ENDPOINT_URL: standIn.url, AWS_REGION: 'eu-west-1', ...fakeKeys });
  return standIn;
}

afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  for (const name of sdkSettings) {
    if (savedSettings[name] === undefined) delete process.env[name];
    else process.env[name] = savedSettings[name];
  }
});

async function run(args: string[], cwd = cdkJsonDirectory) {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runPreflightCommand(args, {
    print: (line) => lines.push(line),
    printError: (line) => errors.push(line),
    cwd,
  });
  return { code, lines, errors };
}

const lineOf = (lines: string[], name: string) => lines.find((line) => line.includes(` ${name}: `));

describe("the preflight with the repository's sample content (its placeholders left)", () => {
  let sampleCheckout: string;
  beforeAll(async () => {
    sampleCheckout = await mkdtemp(path.join(os.tmpdir(), 'preflight-sample-'));
    await cp(path.join(cdkJsonDirectory, 'cdk.json'), path.join(sampleCheckout, 'cdk.json'));
    await cp(path.join(process.cwd(), 'content'), path.join(sampleCheckout, 'content'), { recursive: true });
  });
  afterAll(() => rm(sampleCheckout, { recursive: true, force: true }));

  test('fails for production, naming each placeholder with its file and line', async () => {
    await standInFor(healthyAccount);
    const { code, lines } = await run([], sampleCheckout);
    expect(code).toBe(1);
    const content = lineOf(lines, 'content');
    expect(content).toMatch(/^FAIL /);
    const spots = await readPlaceholderSpots(sampleCheckout);
    expect(spots.map((spot) => spot.name)).toContain("the site's address");
    for (const { file, line, name } of spots) expect(content).toContain(`${file}:${line}: ${name}`);
    expect(lines.at(-1)).toContain('Failed: content.');
  });

  test('only warns for staging', async () => {
    await standInFor(healthyAccount);
    const { code, lines } = await run(['-c', 'stage=staging'], sampleCheckout);
    expect(lineOf(lines, 'content')).toMatch(/^WARN .*content\/privacy\.yaml:\d+: the privacy contact address/);
    expect(lines.at(-1)).not.toContain('content');
    expect(code).toBe(0);
  });
});

describe('the preflight command', () => {
  test('prints one line per check and a summary, and exits 0 when nothing fails', async () => {
    await standInFor(healthyAccount);
    const { code, lines } = await run([]);
    expect(code).toBe(0);
    expect(lines[0]).toBe('Preflight of First100DaysSite in 123456789012/eu-west-1');
    expect(lines.slice(1, -1).map((line) => line.split(' ')[0])).toEqual([
      'PASS', // account
      'PASS', // region
      'PASS', // bootstrap eu-west-1
      'PASS', // bootstrap us-east-1: the web ACL's stack, on by default
      'PASS', // stack
      'PASS', // sender identity
      'PASS', // SES sandbox
      'PASS', // SES sending
      'PASS', // SES quota
      'PASS', // SES rate
      'PASS', // Lambda concurrency
      'PASS', // tables
      'MANUAL', // CloudFront account verification
      'PASS', // content: no placeholder left
    ]);
    expect(lines.at(-1)).toMatch(/^Preflight: 13 passed, 0 warnings, 0 failed, 1 manual\. Nothing fails/);
  });

  test('makes only read calls', async () => {
    const aws = await standInFor({ ...healthyAccount, stackStatus: undefined, tables: [], identities: {} });
    await run([]);
    const operations = new Set(aws.requests.map((request) => request.split(' ').slice(2).join(' ')));
    expect([...operations].sort()).toEqual([
      'DescribeStacks',
      'DescribeTable',
      'GET /2016-08-19/account-settings',
      'GET /v2/email/account',
      'GET /v2/email/identities/cheatsheet%40example.com',
      'GetCallerIdentity',
      'GetParameter',
    ]);
  });

  test('checks the bootstrap in us-east-1 too with the web ACL (the default), failing with the command that fixes it', async () => {
    await standInFor({ ...healthyAccount, bootstrapped: ['eu-west-1'] });
    const { code, lines } = await run([]);
    expect(code).toBe(1);
    expect(lineOf(lines, 'bootstrap us-east-1')).toContain('Fix: npx cdk bootstrap aws://123456789012/us-east-1');
    expect(lines.at(-1)).toContain('Failed: bootstrap us-east-1.');
  });

  test('names every failed check on a new account after a failed first deploy', async () => {
    await standInFor({
      ...healthyAccount,
      stackStatus: 'ROLLBACK_COMPLETE',
      ses: { production: false, sending: true, quota: 200, rate: 1 },
      concurrency: 10,
    });
    const { code, lines } = await run(['-c', 'senderEmail=cheatsheet@example.com']);
    expect(code).toBe(1);
    expect(lines.at(-1)).toContain('Failed: sender identity, tables.');
    expect(lineOf(lines, 'tables')).toContain(
      'npx cdk deploy --import-existing-resources -c senderEmail=cheatsheet@example.com',
    );
    expect(lineOf(lines, 'SES sandbox')).toMatch(/^WARN .*sandbox/);
    // The sandbox's quota of 200 is below the budget of 10,000: a warning naming production access, as docs/deploy.md says.
    expect(lineOf(lines, 'SES quota')).toMatch(/^WARN .*Fix: request production access/);
    expect(lineOf(lines, 'Lambda concurrency')).toMatch(/^WARN .*concurrency quota in eu-west-1 is 10/);
    // The sandbox's 1 a second is the sandbox's: production access lifts it.
    expect(lineOf(lines, 'SES rate')).toMatch(/^WARN .*sends 1 e-mail a second .*Fix: request production access/);
  });

  test('after a cdk destroy with leads left in the tables under an enabled key, prints the adopt command and no delete', async () => {
    const key = 'arn:aws:kms:eu-west-1:123456789012:key/0a1b2c3d-leads';
    const aws = await standInFor({
      ...healthyAccount,
      stackStatus: undefined,
      tables: [
        { name: 'cheat_sheet_requests', itemCount: 1200, key },
        { name: 'cheat_sheet_send_quotas', itemCount: 40, key },
        { name: 'cheat_sheet_idempotency', itemCount: 0, key },
      ],
      keys: { [key]: 'Enabled' },
    });
    const { code, lines } = await run(['-c', 'senderEmail=cheatsheet@example.com']);
    expect(code).toBe(1);
    const tables = lineOf(lines, 'tables');
    expect(tables).toContain('cheat_sheet_requests 1200 items');
    expect(tables).toContain('npx cdk deploy --import-existing-resources -c senderEmail=cheatsheet@example.com');
    expect(lines.join('\n')).not.toMatch(/delete-table|no-deletion-protection/);
    expect(aws.requests.filter((request) => request.startsWith('kms '))).toEqual(['kms eu-west-1 DescribeKey']);
  });

  test('with empty tables under a key pending deletion (a rolled-back create), may print the delete', async () => {
    const key = 'arn:aws:kms:eu-west-1:123456789012:key/0a1b2c3d-orphaned';
    await standInFor({
      ...healthyAccount,
      stackStatus: undefined,
      tables: [{ name: 'cheat_sheet_requests', itemCount: 0, key }],
      keys: { [key]: 'PendingDeletion' },
    });
    const { lines } = await run(['-c', 'senderEmail=cheatsheet@example.com']);
    expect(lineOf(lines, 'tables')).toContain(
      'aws dynamodb delete-table --region eu-west-1 --table-name cheat_sheet_requests',
    );
    expect(lineOf(lines, 'tables')).not.toContain('--import-existing-resources');
  });

  test("fails when a production account's SES rate cannot send a launch hour within it, naming the request", async () => {
    await standInFor({ ...healthyAccount, ses: { ...healthyAccount.ses, rate: 1 } });
    const { code, lines } = await run([]);
    expect(code).toBe(1);
    expect(lineOf(lines, 'SES rate')).toMatch(
      /^FAIL .*sends 1 e-mail a second in eu-west-1; 5,000 readers in an hour need 2.*Fix: request a higher sending rate.*at least 2 a second/,
    );
    expect(lines.at(-1)).toContain('Failed: SES rate.');
  });

  test("fails when the account's Lambda concurrency is below what the stage's rate needs, naming the request", async () => {
    await standInFor({ ...healthyAccount, concurrency: 10 });
    const { code, lines } = await run(['-c', 'apiRateLimit=40']);
    expect(code).toBe(1);
    expect(lineOf(lines, 'Lambda concurrency')).toMatch(
      /^FAIL .*quota in eu-west-1 is 10, below the 11 the API's 40 requests a second need.*Fix: request 1000 .*L-B99A9384/,
    );
  });

  test("checks the custom domain's certificate in us-east-1", async () => {
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0f2c5b8e-1234-4d6e-9abc-0123456789ab';
    const aws = await standInFor({
      ...healthyAccount,
      certificates: { [certificateArn]: { status: 'PENDING_VALIDATION', names: ['www.example.com'] } },
    });
    const { code, lines } = await run(['-c', 'domainName=www.example.com', '-c', `certificateArn=${certificateArn}`]);
    expect(code).toBe(1);
    expect(lineOf(lines, 'certificate')).toMatch(/^FAIL .*PENDING_VALIDATION, not ISSUED/);
    expect(aws.requests).toContain('acm us-east-1 DescribeCertificate');
  });

  test("reads the stage's region and names its stack", async () => {
    await standInFor(healthyAccount);
    process.env.AWS_REGION = 'us-west-2';
    const { lines } = await run(['-c', 'stage=staging']);
    expect(lines[0]).toBe('Preflight of First100DaysSite-staging (stage staging) in 123456789012/eu-west-1');
  });

  test("fails when the credentials reach another account than the stage's", async () => {
    await standInFor(healthyAccount);
    const { code, lines } = await run(['-c', 'stage=elsewhere']);
    expect(code).toBe(1);
    expect(lineOf(lines, 'account')).toMatch(/^FAIL .*deploys to account 999999999999/);
  });

  test("is a usage error for a stage cdk.json does not define, in the app's one line", async () => {
    const { code, errors } = await run(['-c', 'stage=qa']);
    expect(code).toBe(2);
    expect(errors).toEqual([
      'Unknown stage "qa": -c stage takes a key of "stages" in cdk.json (one of staging, elsewhere, unfinished).',
    ]);
  });

  test("is a usage error for a stage missing a value it needs, in the app's one line", async () => {
    const { code, errors } = await run(['-c', 'stage=unfinished']);
    expect(code).toBe(2);
    expect(errors).toEqual(['Stage "unfinished" has no alarmEmail: set stages.unfinished.alarmEmail in cdk.json.']);
  });

  test("reads the repository's own stages from its cdk.json, as cdk deploy does", async () => {
    await standInFor(healthyAccount);
    const lines: string[] = [];
    await runPreflightCommand(['-c', 'stage=staging'], {
      print: (line) => lines.push(line),
      printError: (line) => lines.push(line),
      cwd: process.cwd(),
    });
    expect(lines[0]).toBe('Preflight of First100DaysSite-staging (stage staging) in 123456789012/eu-west-1');
    expect(lineOf(lines, 'account')).toMatch(/deploys to account 111111111111/);
  });
});

describe('npm run preflight', () => {
  const script = 'scripts/preflight.ts';
  // Each spawn starts tsx and the SDK: seconds on a busy machine.
  const spawnTimeout = 60_000;

  test(
    'exits 0 when nothing fails',
    async () => {
      const aws = await startStandInAws(healthyAccount);
      standIn = aws;
      const run = spawnScript(
        script,
        { AWS_ENDPOINT_URL: aws.url, AWS_REGION: 'eu-west-1', ...fakeKeys, ...quietSdk },
        ['-c', 'senderEmail=cheatsheet@example.com'],
        { cwd: cdkJsonDirectory },
      );
      expect(await run.exited).toBe(0);
      expect(run.stdout()).toContain('PASS   SES quota: 24-hour quota 50000, above the daily send budget 10000');
    },
    spawnTimeout,
  );

  test(
    'exits 1 naming the failed checks',
    async () => {
      const aws = await startStandInAws({
        ...healthyAccount,
        ses: { production: true, sending: false, quota: 50_000 },
      });
      standIn = aws;
      const run = spawnScript(
        script,
        { AWS_ENDPOINT_URL: aws.url, AWS_REGION: 'eu-west-1', ...fakeKeys, ...quietSdk },
        ['-c', 'senderEmail=cheatsheet@example.com'],
        { cwd: cdkJsonDirectory },
      );
      expect(await run.exited).toBe(1);
      expect(run.stdout()).toContain('Failed: SES sending.');
    },
    spawnTimeout,
  );

  test(
    'exits 2 with the usage line for an unknown flag',
    async () => {
      const run = spawnScript(script, quietSdk, ['--stack', 'First100DaysSite']);
      expect(await run.exited).toBe(2);
      expect(run.stderr()).toContain('Usage: npm run preflight -- [-c KEY=VALUE ...]');
    },
    spawnTimeout,
  );

  test(
    'prints one line and no stack trace without credentials',
    async () => {
      const home = await mkdtemp(path.join(os.tmpdir(), 'preflight-home-'));
      const run = spawnScript(
        script,
        {
          ...quietSdk,
          HOME: home,
          AWS_REGION: 'eu-west-1',
          AWS_ACCESS_KEY_ID: '',
          AWS_SECRET_ACCESS_KEY: '',
          AWS_SESSION_TOKEN: '',
          AWS_PROFILE: '',
          AWS_CONFIG_FILE: path.join(home, 'none'),
          AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'none'),
          AWS_EC2_METADATA_DISABLED: 'true',
          AWS_CONTAINER_CREDENTIALS_FULL_URI: '',
          AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '',
          AWS_WEB_IDENTITY_TOKEN_FILE: '',
        },
        ['-c', 'senderEmail=cheatsheet@example.com'],
        { cwd: cdkJsonDirectory },
      );
      const code = await run.exited;
      await rm(home, { recursive: true, force: true });
      expect(code).toBe(1);
      expect(run.stdout()).toBe('');
      expect(run.stderr()).toBe(`${noCredentialsLine}\n`);
    },
    spawnTimeout,
  );
});
