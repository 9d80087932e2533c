/**
 * `--stack NAME`: the stack's outputs, the SES account and the sender identity, with the AWS
 * calls answered by aws-sdk-client-mock (no AWS account in tests); then the whole command, its
 * site checks run against the local twin the stack's SiteUrl points to.
 */

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { buildOutput } from '../../../core/build-output';
import { cheatSheetPdfForTests, stackStartTimeoutMs } from '../../support/cheat-sheet-pdf';
import { freshTemporaryDirectory } from '../../support/temporary-directory';
import { startLocalStack, type LocalStack } from '../../../local/local-stack';
import { runDeploymentChecks } from '../../../ops/smoke/deployment-checks';
import { runSmokeCommand, usage } from '../../../ops/smoke/smoke-command';

const cloudFormation = new CloudFormationClient({ region: 'eu-west-1' });
const ses = new SESv2Client({ region: 'eu-west-1' });
const cloudFormationMock = mockClient(cloudFormation);
const sesMock = mockClient(ses);
const clients = { cloudFormation, ses };

function stackWithOutputs(siteUrl = 'https://d111111abcdef8.cloudfront.net') {
  cloudFormationMock.on(DescribeStacksCommand, { StackName: 'First100DaysSite' }).resolves({
    Stacks: [
      {
        StackName: 'First100DaysSite',
        CreationTime: new Date(),
        StackStatus: 'UPDATE_COMPLETE',
        Outputs: [
          { OutputKey: 'SiteUrl', OutputValue: siteUrl },
          { OutputKey: 'SenderIdentityName', OutputValue: 'cheatsheet@example.com' },
        ],
      },
    ],
  });
}

function sesAccount({
  production,
  verified,
  status,
}: {
  production: boolean;
  verified: boolean;
  status?: 'PENDING' | 'FAILED';
}) {
  sesMock.on(GetAccountCommand).resolves({
    ProductionAccessEnabled: production,
    SendingEnabled: true,
    SendQuota: { Max24HourSend: production ? 50_000 : 200, MaxSendRate: 14, SentLast24Hours: 3 },
  });
  sesMock.on(GetEmailIdentityCommand, { EmailIdentity: 'cheatsheet@example.com' }).resolves({
    VerifiedForSendingStatus: verified,
    VerificationStatus: verified ? 'SUCCESS' : (status ?? 'PENDING'),
    ...(!verified && { DkimAttributes: { Status: status ?? 'PENDING', Tokens: ['tok1', 'tok2'] } }),
  });
}

beforeEach(() => {
  cloudFormationMock.reset();
  sesMock.reset();
});

describe('the deployment checks', () => {
  test('pass when the account is out of the sandbox and the sender identity is verified', async () => {
    stackWithOutputs();
    sesAccount({ production: true, verified: true });

    const { results, siteUrl } = await runDeploymentChecks('First100DaysSite', clients);

    expect(results.map(({ name, ok }) => [name, ok])).toEqual([
      ['stack First100DaysSite', true],
      ['SES account', true],
      ['sender identity', true],
    ]);
    expect(results[1].detail).toBe('out of the sandbox, sending enabled, quota 50000 a day, 3 sent in 24 h');
    expect(results[2].detail).toBe('cheatsheet@example.com verified for sending');
    expect(siteUrl).toBe('https://d111111abcdef8.cloudfront.net');
  });

  test('warn, naming the fix, while the account is in the SES sandbox', async () => {
    stackWithOutputs();
    sesAccount({ production: false, verified: true });

    const { results } = await runDeploymentChecks('First100DaysSite', clients);

    const account = results.find(({ name }) => name === 'SES account')!;
    expect(account).toMatchObject({ ok: true, warning: true });
    expect(account.detail).toMatch(/^still in the sandbox: it delivers only to verified addresses, 200 a day/);
    expect(account.detail).toContain('Fix: request production access');
  });

  test('warn while the sender identity is pending, naming the DNS records to add', async () => {
    stackWithOutputs();
    sesAccount({ production: true, verified: false });

    const { results } = await runDeploymentChecks('First100DaysSite', clients);

    const identity = results.find(({ name }) => name === 'sender identity')!;
    expect([identity.ok, identity.warning]).toEqual([true, true]);
    expect(identity.detail).toContain('cheatsheet@example.com not verified (PENDING');
    expect(identity.detail).toContain('CNAME tok1._domainkey.example.com -> tok1.dkim.amazonses.com');
  });

  test('fail once the verification failed', async () => {
    stackWithOutputs();
    sesAccount({ production: true, verified: false, status: 'FAILED' });

    const { results } = await runDeploymentChecks('First100DaysSite', clients);

    expect(results.find(({ name }) => name === 'sender identity')!.ok).toBe(false);
  });

  test('fail with the reason when the stack cannot be read', async () => {
    cloudFormationMock
      .on(DescribeStacksCommand)
      .rejects(Object.assign(new Error('Stack with id Nope does not exist'), { name: 'ValidationError' }));

    const { results, siteUrl } = await runDeploymentChecks('Nope', clients);

    expect(results).toEqual([
      { name: 'stack Nope', ok: false, detail: 'cannot read it: ValidationError: Stack with id Nope does not exist' },
    ]);
    expect(siteUrl).toBeUndefined();
  });
});

describe('npm run smoke', () => {
  let stack: LocalStack;
  // Starting the emulators and building the PDF (its fonts subset) takes seconds on a busy machine.
  beforeAll(async () => {
    process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    stack = await startLocalStack({
      siteDir: path.join(process.cwd(), buildOutput.siteDirectory),
      cheatSheetPdf: await cheatSheetPdfForTests(),
    });
  }, stackStartTimeoutMs);
  afterAll(() => stack?.stop());

  /** The command, in an environment of its own: no GitHub job's summary unless `env` names one. */
  async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> {
    const printed: string[] = [];
    const code = await runSmokeCommand(args, { print: (text) => printed.push(text), clients: () => clients, env });
    return { code, output: printed.join('\n') };
  }

  test('with --stack alone checks the site at its SiteUrl, and exits 0 when everything holds', async () => {
    stackWithOutputs(stack.urls.site);
    sesAccount({ production: true, verified: true });

    const { code, output } = await run(['--stack', 'First100DaysSite']);

    expect(output).toContain(`Checking ${stack.urls.site}`);
    expect(output.split('\n').at(-1)).toBe('All 12 checks passed.');
    expect(code).toBe(0);
  });

  test('exits 0 with a warning naming the fix when the account is in the sandbox, as the docs say', async () => {
    stackWithOutputs(stack.urls.site);
    sesAccount({ production: false, verified: true });

    const { code, output } = await run([stack.urls.site, '--stack', 'First100DaysSite']);

    expect(output).toContain('WARN  SES account: still in the sandbox');
    expect(output).toContain('Fix: request production access');
    expect(output.split('\n').at(-1)).toBe('All 12 checks passed. 1 with a warning: SES account.');
    expect(code).toBe(0);
  });

  test("exits 0 with a warning naming the DNS records while the sender identity is pending (a new stage's first run)", async () => {
    stackWithOutputs(stack.urls.site);
    sesAccount({ production: true, verified: false });

    const { code, output } = await run([stack.urls.site, '--stack', 'First100DaysSite']);

    expect(output).toContain('WARN  sender identity');
    expect(output).toContain('tok2.dkim.amazonses.com');
    expect(code).toBe(0);
  });

  test("in a GitHub job, puts the pending identity's warning and each DNS record to add in the job summary", async () => {
    stackWithOutputs(stack.urls.site);
    sesAccount({ production: true, verified: false });
    const directory = freshTemporaryDirectory('job-summary-');
    const summaryFile = path.join(directory, 'step-summary.md');
    writeFileSync(summaryFile, '## An earlier step\n');

    try {
      const { code } = await run([stack.urls.site, '--stack', 'First100DaysSite'], {
        GITHUB_STEP_SUMMARY: summaryFile,
      });

      expect(code).toBe(0);
      const summary = readFileSync(summaryFile, 'utf8');
      expect(summary).toMatch(/^## An earlier step\n## Smoke test: First100DaysSite\n/);
      expect(summary).toContain('All 12 checks passed, 1 with a warning.');
      expect(summary).toContain('**WARN sender identity**: cheatsheet@example.com not verified (PENDING');
      expect(summary).toContain(
        '  CNAME tok1._domainkey.example.com -> tok1.dkim.amazonses.com\n  CNAME tok2._domainkey.example.com -> tok2.dkim.amazonses.com\n',
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test('exits 1 naming the failed check when the sender identity failed verification', async () => {
    stackWithOutputs(stack.urls.site);
    sesAccount({ production: true, verified: false, status: 'FAILED' });

    const { code, output } = await run([stack.urls.site, '--stack', 'First100DaysSite']);

    expect(output).toContain('FAIL  sender identity');
    expect(output.split('\n').at(-1)).toBe('1 of 12 checks failed: sender identity.');
    expect(code).toBe(1);
  });

  test.each([[[]], [['not-a-url']], [['http://a.example', 'http://b.example']]])(
    'exits 2 with the usage for the arguments %j',
    async (args) => {
      const { code, output } = await run(args);
      expect(code).toBe(2);
      expect(output).toContain(usage);
    },
  );
});
