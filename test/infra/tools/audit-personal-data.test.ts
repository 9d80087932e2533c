/**
 * The audit report's data-protection case, from a synthesized stage: the personal-data table with
 * the template's retention, and the stamp.
 */
import { rmSync } from 'node:fs';
import { parseDeploymentConfig } from '../../../infra/config';
import { createAppStacks } from '../../../infra/stacks';
import { dataSection } from '../../../infra/tools/audit-data-section';
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
      authorEmail: 'author@example.com',
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

  test("puts the funnel's salt and visitor hashes in their own table, read from the template as kept in no backup, and the day's counts with the counters", () => {
    const section = personalDataSection(views);
    expect(section).toContain(
      "| `cheat_sheet_funnel_visitors` | the day's end (DynamoDB TTL; the next day's first visit deletes the salt); no backup keeps them (no point-in-time recovery) |",
    );
    expect(section).toContain(
      "| the funnel's day counts (`funnel#…`): visits and unique visitors, numbers only | `cheat_sheet_send_quotas` | 400 days (DynamoDB TTL) |",
    );
  });

  test('names the SES suppression list and how erase empties it', () => {
    expect(personalDataSection(views)).toContain('DeleteSuppressedDestination');
  });
});

const rowOf = (section: string, start: string) => section.split('\n').find((line) => line.startsWith(start));

test("lists the failed events' queue, with its retention read from the template, which erase cannot reach", () => {
  expect(rowOf(personalDataSection(views), "| a failed run's event")).toMatch(
    /\| the failed events' queue `FailedEventsQueue\w+` \(under the leads' key\) \| 14 days \(the queue's retention\) \| `leads erase` cannot reach it/,
  );
});

test("lists the export's e-mail and the erase workflow's input, outside the stack, each with how to remove it", () => {
  const section = personalDataSection(views);
  expect(rowOf(section, '| every request (the full CSV')).toContain("the author's mailbox (outside AWS)");
  expect(rowOf(section, "| the reader's address typed into the Leads workflow's form")).toContain(
    'Delete workflow run',
  );
});

test("states the web ACL's logging as a choice, with what logging would cost", () => {
  expect(
    rowOf(personalDataSection(views), '| client IP address, headers and path of every request the web ACL inspects'),
  ).toMatch(/nowhere: the web ACL has no logging \(a choice\) .*0\.50 USD per GB ingested/);
});

test("lists what CDK's lookup role may read (the suppression list, the author's address) as a finding with its fix", () => {
  const row = rowOf(personalDataSection(views), "| addresses on SES's suppression list");
  expect(row).toContain('through the diff role');
  expect(row).toContain('Fix: bootstrap with a template whose lookup role also denies');
});

test('the SES row names each event destination, TLS REQUIRE, and every role that may send through the set', () => {
  const row = rowOf(dataSection(views), '| `MailConfigurationSet')!;
  expect(row).toContain("→ EventBridge's default bus");
  expect(row).toContain('→ CloudWatch metrics');
  expect(row).toContain('REQUIRE (a server that offers none gets no message');
  for (const role of ['ApiSendCheatSheet', 'ApiSubmitForm', 'EventFunctionsLeadDigest', 'LeadsAccessReaderRole'])
    expect(row).toMatch(new RegExp(`\`${role}\\w*\``));
  expect(row).not.toMatch(/`ApiSaveRequest/);
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
