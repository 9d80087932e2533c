/**
 * The rule packs as the app runs them (cdk-nag's AwsSolutions and Serverless, Control Tower's
 * proactive controls): in the default synth and with every option on, nothing is open, nothing
 * accepted is stale, every fixed control passes on every resource, and each accepted finding is
 * explained in the README. Small apps show that a new finding, one of several, or a stale
 * acknowledgement fails.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, CfnResource, Stack, Validations } from 'aws-cdk-lib';
import { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { buildAuditReport, type AuditReport } from '../../../infra/tools/audit-report';
import { acknowledgeControlTowerExceptions, addComplianceChecks } from '../../../infra/tools/compliance-checks';
import { ControlTowerChecks, controlTowerControls } from '../../../infra/tools/control-tower-checks';
import { controlTowerExceptions } from '../../../infra/tools/control-tower-exceptions';
import { cdkJsonContext, createTestApp, repoRoot, synthWithRulePacks } from '../support/synth';

const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d';
const everyOption = {
  context: { domainName: 'www.example.com', certificateArn, alarmEmail: 'ops@example.com', waf: 'true' },
  deploymentTarget: { account: '123456789012', region: 'eu-west-1' },
};

/** Control Tower controls the constructs meet on every resource (nothing accepted anywhere). */
const fixedControls = ['CT.CLOUDWATCH.PR.2', 'CT.CLOUDWATCH.PR.3', 'CT.S3.PR.4', 'CT.S3.PR.11', 'CT.KMS.PR.3'];

let outdirs: string[] = [];
function freshOutdir(): string {
  const outdir = mkdtempSync(path.join(tmpdir(), 'rule-packs-'));
  outdirs.push(outdir);
  return outdir;
}
afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
  outdirs = [];
});

const findingsOf = (report: AuditReport, rule: string) => [
  ...report.open.filter((finding) => finding.rule === rule).flatMap((finding) => finding.resources),
  ...report.accepted.filter((finding) => finding.rule === rule).flatMap((finding) => finding.resources),
];
const acceptedRules = (report: AuditReport) => new Set(report.accepted.map((finding) => finding.rule));

/** The README's Audit section: where every accepted finding is explained. */
function auditSection(): string {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Audit');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

describe('the rule packs, in the default synth', () => {
  let report: AuditReport;
  beforeAll(() => {
    report = synthWithRulePacks({ outdir: freshOutdir() });
  });

  test('leave no finding open in AwsSolutions, Serverless or Control Tower', () => {
    expect(report.open).toEqual([]);
    expect(new Set(report.accepted.map((finding) => finding.pack))).toEqual(
      new Set(['AwsSolutions', 'Serverless', 'ControlTower']),
    );
  });

  test('have no acknowledgement that matched no finding', () => {
    expect(report.stale).toEqual([]);
  });

  test.each(fixedControls)('find nothing to accept for %s, on any resource', (control) => {
    expect(findingsOf(report, control)).toEqual([]);
  });

  test('accept CT.S3.PR.10 (SSE-KMS) on the access-log bucket alone, the one bucket S3 logs are delivered to', () => {
    expect(findingsOf(report, 'CT.S3.PR.10')).toEqual(['First100DaysSite/Data/AccessLogsBucket/Resource']);
  });

  test('accept each Control Tower finding on a resource of infra/tools/control-tower-exceptions.ts, with its reason', () => {
    const controlTower = report.accepted.filter((finding) => finding.pack === 'ControlTower');
    expect(controlTower.length).toBeGreaterThan(0);
    for (const finding of controlTower) {
      const exception = controlTowerExceptions.find(
        (candidate) => candidate.control === finding.rule && candidate.reason === finding.reason,
      );
      expect({ finding: finding.rule, at: finding.resources, listed: exception !== undefined }).toEqual({
        finding: finding.rule,
        at: finding.resources,
        listed: true,
      });
    }
  });

  test('give every accepted finding a specific reason that the README explains under Audit', () => {
    const audit = auditSection();
    for (const finding of report.accepted) {
      expect({ rule: finding.rule, specific: finding.reason.length > 80 }).toEqual({
        rule: finding.rule,
        specific: true,
      });
      expect(audit).toContain(`\`${finding.rule}\``);
    }
  });
});

describe('the rule packs, with every option on (custom domain, alarmEmail, waf outside us-east-1)', () => {
  let report: AuditReport;
  beforeAll(() => {
    report = synthWithRulePacks({ outdir: freshOutdir(), ...everyOption });
  });

  test('check both stacks and leave no finding open and no acknowledgement stale', () => {
    expect(report.markdown).toContain('`First100DaysSiteWebFirewall`');
    expect(report.open).toEqual([]);
    expect(report.stale).toEqual([]);
  });

  test.each([...fixedControls, 'CT.LAMBDA.PR.2', 'CT.CLOUDFRONT.PR.6', 'CT.CLOUDFRONT.PR.7', 'CT.CLOUDFRONT.PR.9'])(
    'find nothing to accept for %s: the invoke permissions name a literal account, the distribution a custom certificate',
    (control) => {
      expect(findingsOf(report, control)).toEqual([]);
    },
  );

  test('accept no missing WAF, no default certificate, and the alarm e-mail without a dead-letter queue', () => {
    expect(acceptedRules(report)).not.toContain('AwsSolutions-CFR2');
    expect(acceptedRules(report)).not.toContain('AwsSolutions-CFR4');
    expect(acceptedRules(report)).toContain('Serverless-SNSRedrivePolicy');
  });

  test('explain in the README every finding accepted only with these options', () => {
    const audit = auditSection();
    for (const finding of report.accepted) {
      // With an account, CDK's asset bucket is named literally; the README names it by its pseudo parameters.
      const rule = finding.rule.replace(
        'aws:s3:::cdk-hnb659fds-assets-123456789012-eu-west-1',
        '<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>',
      );
      expect(audit).toContain(`\`${rule}\``);
    }
  });
});

describe('the rule packs, with -c waf=true in us-east-1 (one stack)', () => {
  test('leave nothing open and nothing stale', () => {
    const report = synthWithRulePacks({
      outdir: freshOutdir(),
      context: { waf: 'true' },
      deploymentTarget: { account: '123456789012', region: 'us-east-1' },
    });
    expect(report.open).toEqual([]);
    expect(report.stale).toEqual([]);
  });
});

/** An app with one stack and nothing else of the product, checked as the app checks. */
function smallApp(outdir: string): { app: App; stack: Stack } {
  const app = new App({ outdir, context: cdkJsonContext() });
  const stack = new Stack(app, 'Small');
  addComplianceChecks(app);
  return { app, stack };
}

describe('a synth with the rule packs', () => {
  test('fails on a finding nobody explained, in each pack', () => {
    const { app, stack } = smallApp(freshOutdir());
    new CfnBucket(stack, 'BareBucket'); // no logging, no TLS-only policy, no versioning...
    expect(() => app.synth()).toThrow(/AwsSolutions-S1[\s\S]*CT\.S3\.PR\.11/);
    const report = JSON.parse(readFileSync(path.join(app.outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: Array<{ pluginName: string; violations: Array<{ ruleName: string }> }>;
    };
    const open = report.pluginReports.flatMap((plugin) =>
      plugin.violations.map((v) => `${plugin.pluginName}::${v.ruleName}`),
    );
    expect(open).toEqual(expect.arrayContaining(['AwsSolutions::AwsSolutions-S1', 'ControlTower::CT.S3.PR.11']));
  });

  test('still fails on the other Control Tower findings once one of them is acknowledged', () => {
    // cfn-guard leaves findings without a severity, which CDK counts as passed once any one of a
    // report's findings is acknowledged; ControlTowerChecks marks them as errors. Control Tower alone here.
    const app = new App({ outdir: freshOutdir(), context: cdkJsonContext() });
    const bucket = new CfnBucket(new Stack(app, 'Small'), 'BareBucket');
    Validations.of(app).addPlugins(new ControlTowerChecks());
    Validations.of(bucket).acknowledge({ id: 'ControlTower::CT.S3.PR.9', reason: 'acknowledged for this test only' });
    expect(() => app.synth()).toThrow(/CT\.S3\.PR\.11/);
    const report = JSON.parse(readFileSync(path.join(app.outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: Array<{ conclusion: string; violations: Array<{ ruleName: string }> }>;
    };
    expect(report.pluginReports[0].conclusion).toBe('failure');
    expect(report.pluginReports[0].violations.map((v) => v.ruleName)).toContain('CT.S3.PR.11');
  });

  test('reports an acknowledgement that matched no finding as stale', () => {
    const { app, stack } = smallApp(freshOutdir());
    const handle = new CfnResource(stack, 'Nothing', { type: 'AWS::CloudFormation::WaitConditionHandle' });
    Validations.of(handle).acknowledge(
      { id: 'ControlTower::CT.S3.PR.9', reason: 'a bucket that is no longer here' },
      { id: 'AwsSolutions::AwsSolutions-S1', reason: 'nor is its logging' },
    );
    const report = buildAuditReport({ assembly: app.synth() });
    expect(report.stale.map(({ id, path: where }) => `${id} at ${where}`)).toEqual([
      'ControlTower::CT.S3.PR.9 at Small/Nothing',
      'AwsSolutions::AwsSolutions-S1 at Small/Nothing',
    ]);
    expect(report.markdown).toContain('stale acknowledgement');
  });

  test('refuses a Control Tower exception that names no resource, or no control', () => {
    const { stack } = createTestApp();
    const facts = { customDomain: false, accountKnown: false };
    expect(() =>
      acknowledgeControlTowerExceptions(stack, facts, [
        { control: 'CT.S3.PR.9', resources: 'Site/Gone/Resource', reason: 'no such bucket' },
      ]),
    ).toThrow('the exception for CT.S3.PR.9 names no AWS::S3::Bucket at Site/Gone/Resource');
    expect(() =>
      acknowledgeControlTowerExceptions(stack, facts, [
        { control: 'CT.S3.PR.99', resources: 'Site/Bucket/Resource', reason: '-' },
      ]),
    ).toThrow('CT.S3.PR.99, which is no Control Tower control');
  });
});

describe('the Control Tower exceptions', () => {
  test('each name a real control, a specific reason and a row of the README Audit table', () => {
    const audit = auditSection();
    const controls = controlTowerControls().map((control) => control.control);
    for (const exception of controlTowerExceptions) {
      expect(controls).toContain(exception.control);
      expect(exception.reason.length).toBeGreaterThan(80);
      expect(audit).toContain(`\`${exception.control}\``);
    }
  });
});

describe('a synth on a platform the Control Tower validator does not support', () => {
  function synthOn(platform: NodeJS.Platform) {
    const warnings: string[] = [];
    const app = new App({ outdir: freshOutdir(), context: cdkJsonContext() });
    new CfnResource(new Stack(app, 'Small'), 'Nothing', { type: 'AWS::CloudFormation::WaitConditionHandle' });
    const checks = addComplianceChecks(app, { platform, arch: 'x64', warn: (message) => warnings.push(message) });
    const report = buildAuditReport({ assembly: app.synth(), nagPacks: checks.nagPacks, skippedPacks: checks.skipped });
    return { warnings, checks, report };
  }

  test('skips the Control Tower pack on Windows with a one-line warning, and still synthesizes', () => {
    const { warnings, checks } = synthOn('win32');
    expect(warnings).toEqual([
      'Skipping the ControlTower rule pack: the Control Tower validator (cfn-guard) runs on Linux, macOS and WSL only, not on win32.',
    ]);
    expect(checks.controlTower).toBeUndefined();
  });

  test('says in the audit report that the Control Tower pack was skipped, and why', () => {
    const { report } = synthOn('win32');
    expect(report.markdown).toContain(
      '### Control Tower proactive controls\n\nSkipped in this synth: the Control Tower validator (cfn-guard) runs on Linux, macOS and WSL only, not on win32.',
    );
  });

  test('runs the Control Tower pack on Linux, without a warning', () => {
    const { warnings, checks } = synthOn('linux');
    expect(warnings).toEqual([]);
    expect(checks.controlTower).toBeDefined();
  });
});
