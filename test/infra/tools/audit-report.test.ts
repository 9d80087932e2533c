/**
 * cdk.out/audit-report.md as a synth writes it: every role with every action it is granted, every
 * resource that holds data, and each rule pack with what passed and what was accepted, all read
 * from the synthesized template.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditReportFileName, writeAuditReport, type AuditReport } from '../../../infra/tools/audit-report';
import { createTestApp } from '../support/synth';

type Statement = { Action: string | string[] };

describe('the audit report', () => {
  let outdir: string;
  let report: AuditReport;
  let markdown: string;
  let resources: Record<string, { Type: string; Properties: Record<string, any> }>;
  beforeAll(() => {
    outdir = mkdtempSync(path.join(tmpdir(), 'audit-report-'));
    const { app, checks } = createTestApp({ complianceChecks: true, outdir });
    const assembly = app.synth();
    report = writeAuditReport({ assembly, nagPacks: checks!.nagPacks });
    markdown = readFileSync(path.join(outdir, auditReportFileName), 'utf8');
    resources = (assembly.getStackByName('First100DaysSite').template as { Resources: typeof resources }).Resources;
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  const idsOf = (type: string) =>
    Object.entries(resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([id]) => id);

  /** The markdown from a heading to the next heading of the same or a higher level. */
  const section = (heading: string) => {
    const start = markdown.indexOf(heading);
    const level = /^#+/.exec(heading)![0].length;
    const rest = markdown.slice(start + heading.length);
    const next = new RegExp(`\\n#{1,${level}} `).exec(rest);
    return markdown.slice(start, next ? start + heading.length + next.index : undefined);
  };

  test('is the file written into cdk.out, and says it is generated', () => {
    expect(markdown).toBe(report.markdown);
    expect(markdown).toContain('Written by every synth from the templates');
  });

  test('lists every bucket, table, log group and key, with its encryption', () => {
    const data = section('## What holds or moves data');
    const stores = ['AWS::S3::Bucket', 'AWS::DynamoDB::Table', 'AWS::Logs::LogGroup', 'AWS::KMS::Key'].flatMap(idsOf);
    expect(stores.length).toBeGreaterThanOrEqual(11); // 3 buckets, 2 tables, 5 log groups, 1 key
    for (const id of stores) expect(data).toContain(`| \`${id}\` |`);
    const keyId = idsOf('AWS::KMS::Key')[0];
    for (const id of idsOf('AWS::Logs::LogGroup')) {
      expect(data).toMatch(new RegExp(`\\| \`${id}\` \\|[^\\n]*KMS, <${keyId}\\.Arn>[^\\n]*events kept 365 days`));
    }
    expect(data).toMatch(/\| `DataAccessLogsBucket\w+` \|[^\n]*SSE-S3 \(AES-256\)/);
    expect(data).toMatch(/\| `SiteBucket\w+` \|[^\n]*SSE-S3 \(AES-256\)/);
    expect(data).toMatch(/\| `DataCheatSheetBucket\w+` \|[^\n]*SSE-S3 \(AES-256\)/);
  });

  test("lists the key policy's condition on each service: CloudWatch's account and source, EventBridge's and Logs' context", () => {
    const data = section('## What holds or moves data');
    const keyRow = data.split('\n').find((line) => line.startsWith(`| \`${idsOf('AWS::KMS::Key')[0]}\` |`))!;
    expect(keyRow).toMatch(
      /events\.amazonaws\.com[^)]*kms:EncryptionContext:aws:sns:topicArn ArnLike[^)]*:sns:[^)]*:First100DaysSite-\*/,
    );
    expect(keyRow).not.toContain('cloudfront.amazonaws.com');
    // The rules that watch the key (its deletion, its disabling) are not among what it encrypts.
    expect(keyRow.split(' | ')[3]).not.toMatch(/DisabledNotices/);
    expect(keyRow.split(' | ')[3]).toMatch(/FailedEventsQueue\w+, MonitoringAlarmTopic\w+, MonitoringTicketTopic\w+/);
    expect(keyRow).toMatch(
      /cloudwatch\.amazonaws\.com[^)]*aws:SourceArn ArnLike[^)]*:alarm:First100DaysSite-\*[^)]*aws:SourceAccount/,
    );
    expect(keyRow).toMatch(/logs\.[^)]*kms:EncryptionContext:aws:logs:arn ArnLike[^)]*log-group:First100DaysSite-\*/);
  });

  test('lists the functions, the topic, the secret, the distribution and the API as well', () => {
    const data = section('## What holds or moves data');
    for (const type of [
      'AWS::Lambda::Function',
      'AWS::SNS::Topic',
      'AWS::SecretsManager::Secret',
      'AWS::CloudFront::Distribution',
      'AWS::ApiGatewayV2::Api',
    ]) {
      for (const id of idsOf(type)) expect(data).toContain(`| \`${id}\` |`);
    }
    expect(data).toMatch(/public endpoint[^\n]*POST \/api\/send-cheat-sheet \(authorization NONE\)/);
  });

  test('lists every role, with its construct path and every action its policies grant', () => {
    const iam = section('## IAM: what each role may do');
    const roles = idsOf('AWS::IAM::Role');
    expect(roles.length).toBeGreaterThanOrEqual(4);
    for (const roleId of roles) {
      const role = section(`### \`${roleId}\``);
      expect(iam).toContain(role);
      expect(role).toMatch(/Construct path `First100DaysSite\/[^`]+`/);
      const granted = Object.values(resources)
        .filter(
          (resource) =>
            resource.Type === 'AWS::IAM::Policy' &&
            (resource.Properties.Roles as unknown[]).some((target) => JSON.stringify(target).includes(`"${roleId}"`)),
        )
        .flatMap((policy) =>
          (policy.Properties.PolicyDocument.Statement as Statement[]).flatMap((s) => [s.Action].flat()),
        );
      expect(granted.length).toBeGreaterThan(0);
      for (const action of granted) expect(role).toContain(`| \`${action}\` |`);
    }
  });

  test("names the resources of the send function's grants: the PDF object, and no key (the bucket is SSE-S3)", () => {
    const send = section(
      `### \`${idsOf('AWS::IAM::Role').find((id) => id.startsWith('ApiSendCheatSheetSendCheatSheetRole'))}\``,
    );
    expect(send).toMatch(/\| `s3:GetObject` \| <DataCheatSheetBucket\w+\.Arn>\/mpc-100-day-cheat-sheet\.pdf \|/);
    expect(send).not.toMatch(/kms:ViaService StringEquals s3\./);
  });

  test('gives each pack what passed and each accepted finding with its reason', () => {
    const awsSolutions = section('### AwsSolutions');
    expect(awsSolutions).toMatch(/\| `AwsSolutions-S10` \| 6 \| 6 \| 0 \|/); // 3 buckets and their policies, all TLS-only
    expect(awsSolutions).toMatch(
      /\| `AwsSolutions-CFR1` \| `First100DaysSite\/Site\/Distribution\/Resource` \| The site is a public/,
    );
    const controlTower = section('### Control Tower proactive controls');
    const logGroups = idsOf('AWS::Logs::LogGroup').length;
    expect(controlTower).toMatch(
      new RegExp(
        `\\| \`CT.CLOUDWATCH.PR.3\` \\| \`cloudwatch_log_group_encrypted_check\` \\| [^|]+ \\| ${logGroups} \\| ${logGroups} \\| 0 \\|`,
      ),
    );
    expect(controlTower).toMatch(
      // All three buckets are SSE-S3: public content, or S3's access logs (each accepted with its reason).
      /\| `CT.S3.PR.10` \| `s3_bucket_default_encryption_kms_check` \| [^|]+ \| 3 \| 0 \| 3 \|/,
    );
    expect(controlTower).toContain('| `CT.LAMBDA.PR.3` | ');
    for (const finding of report.accepted) expect(markdown).toContain(finding.reason);
  });

  test('reports no open finding and no stale acknowledgement', () => {
    expect(section('## Open findings and stale acknowledgements')).toContain('_None._');
  });

  test("lists the product's own warning about a sender without a domain as advice, not as an open finding", () => {
    expect(report.advice).toEqual([{ rule: 'first100days:mail:noSenderDomain', resources: ['First100DaysSite/Mail'] }]);
    expect(section('## Advice on the chosen context')).toContain(
      '| first100days:mail:noSenderDomain | First100DaysSite/Mail |',
    );
  });
});
