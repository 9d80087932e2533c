/**
 * The audit report's data-protection case, from a synthesized stage: the personal-data table with
 * the template's retention, and the stamp.
 */
import { rmSync } from 'node:fs';
import { parseDeploymentConfig } from '../../../infra/config';
import { createAppStacks } from '../../../infra/stacks';
import { auditStamp, personalDataSection, stampSection } from '../../../infra/tools/audit-personal-data';
import { stackView, type StackView } from '../../../infra/tools/cloudformation-template';
import { fixtures, testApp } from '../support/synth';

const readerRoleArn = 'arn:aws:iam::111111111111:role/leads-reader';
let views: StackView[];
let outdir: string;

beforeAll(() => {
  const app = testApp({
    context: {
      'aws:cdk:bundling-stacks': [],
      stage: 'staging',
      githubRepository: 'some-org/first-100-days-site',
      leadsReaderRoleArn: readerRoleArn,
      requestRetentionDays: '400',
    },
  });
  const config = parseDeploymentConfig((key) => app.node.tryGetContext(key));
  createAppStacks(app, { config, deploymentTarget: {}, buildOutput: fixtures });
  const assembly = app.synth();
  outdir = assembly.directory;
  views = assembly.stacks.map(stackView);
});

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('the personal-data table', () => {
  test('gives the requests their retention from the template, and the 35 days of point-in-time recovery', () => {
    const section = personalDataSection(views);
    expect(section).toContain(
      '| `cheat_sheet_requests` | 400 days (DynamoDB TTL); deleted items stay 35 days in point-in-time recovery |',
    );
  });

  test("gives the log groups' retention and the access logs' lifecycle as the template sets them", () => {
    const section = personalDataSection(views);
    expect(section).toMatch(/\| the API's access log group \| 365 days \|/);
    expect(section).toContain('| 365 days (then 30 days as an old version) |');
  });

  test("lists every place an address lives: the suppression entries, the idempotency records and the digest in the author's mailbox", () => {
    const section = personalDataSection(views);
    expect(section).toContain('`suppressed#…`');
    expect(section).toMatch(/`cheat_sheet_idempotency` \| a day \(DynamoDB TTL\) \|/);
    expect(section).toContain("the weekly digest in the author's mailbox (outside AWS)");
  });

  test("says the counters' and the suppression entries' ids are keyed with the deployment's secret, and erase removes both forms", () => {
    const section = personalDataSection(views);
    expect(section).toContain(
      "HMAC-SHA-256 of the normalized address under a key derived from the deployment's secret",
    );
    expect(section).toContain('(its suppression entry, under both ids; the mailbox may then be mailed again)');
    expect(section).toContain('`npm run leads -- rekey`');
  });

  test('names the SES suppression list and how erase empties it', () => {
    expect(personalDataSection(views)).toContain('DeleteSuppressedDestination');
  });
});

test('stamps the report with the commit, the date, the aws-cdk-lib and Node.js versions and the stage', () => {
  const stamp = auditStamp('staging', new Date('2026-03-09T07:00:00Z'));
  expect(stamp.commit).toMatch(/^[0-9a-f]{40}/);
  expect(stamp.awsCdkLib).toMatch(/^2\.\d+\.\d+/);
  expect(stamp.node).toBe(process.version);
  expect(stampSection(stamp)).toContain(
    `| 2026-03-09T07:00:00.000Z | ${stamp.awsCdkLib} | ${process.version} | staging |`,
  );
});
