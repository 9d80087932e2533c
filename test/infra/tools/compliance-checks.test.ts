/**
 * The rule packs as the app runs them (cdk-nag's AwsSolutions and Serverless, Control Tower's
 * proactive controls): in the default synth and with every option on, nothing is open, nothing
 * accepted is stale, every fixed control passes on every resource, and each accepted finding is
 * explained in docs/audit.md. Small apps show that a new finding, one of several, or a stale
 * acknowledgement fails.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type App, CfnResource, type IPolicyValidationPlugin, Stack, Validations } from 'aws-cdk-lib';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { buildAuditReport, type AuditReport } from '../../../infra/tools/audit-report';
import { acknowledgeControlTowerExceptions, addComplianceChecks } from '../../../infra/tools/compliance-checks';
import { ControlTowerChecks, controlsFor, controlTowerControls } from '../../../infra/tools/control-tower-checks';
import { controlTowerExceptions } from '../../../infra/tools/control-tower-exceptions';
import { synthWithRulePacks, testApp } from '../support/synth';
import { auditSection, findingsOf, fixedControls, freshOutdir, removeOutdirs } from '../support/rule-packs';

afterAll(removeOutdirs);

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

  test('accept CT.S3.PR.10 (SSE-KMS) on the three buckets alone, which hold public content or its access logs', () => {
    expect(findingsOf(report, 'CT.S3.PR.10').sort()).toEqual(
      [
        'First100DaysSite/Data/AccessLogsBucket/Resource',
        'First100DaysSite/Data/CheatSheetBucket/Resource',
        'First100DaysSite/Site/Bucket/Resource',
      ].sort(),
    );
  });

  test("accept no point-in-time recovery (CT.DYNAMODB.PR.1, AwsSolutions-DDB3) on the funnel visitors' table alone, where the day's salt lives", () => {
    const funnelVisitors = ['First100DaysSite/Data/FunnelVisitorsTable/Resource'];
    expect([findingsOf(report, 'CT.DYNAMODB.PR.1'), findingsOf(report, 'AwsSolutions-DDB3')]).toEqual([
      funnelVisitors,
      funnelVisitors,
    ]);
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

  test('give every accepted finding a specific reason that docs/audit.md explains', () => {
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

/** An app with one stack and nothing else of the product, checked as the app checks. */
function smallApp(outdir: string): { app: App; stack: Stack } {
  const app = testApp({ outdir });
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
    const app = testApp({ outdir: freshOutdir() });
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
    const stack = new Stack(testApp(), 'Small');
    new CfnBucket(stack, 'Bucket');
    const facts = { customDomain: false, accountKnown: false, leadDigest: false, leadHandoff: false };
    expect(() =>
      acknowledgeControlTowerExceptions(stack, facts, [
        { control: 'CT.S3.PR.9', resources: 'Gone', reason: 'no such bucket' },
      ]),
    ).toThrow('the exception for CT.S3.PR.9 names no AWS::S3::Bucket at Gone');
    expect(() =>
      acknowledgeControlTowerExceptions(stack, facts, [{ control: 'CT.S3.PR.99', resources: 'Bucket', reason: '-' }]),
    ).toThrow('CT.S3.PR.99, which is no Control Tower control');
  });
});

describe('the Control Tower exceptions', () => {
  test('each name a real control, a specific reason and a row of the table in docs/audit.md', () => {
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
    const app = testApp({ outdir: freshOutdir() });
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

describe('the Control Tower check', () => {
  test('runs only the controls that report on a resource type the templates declare', () => {
    const outdir = freshOutdir();
    const templatePath = path.join(outdir, 'Small.template.json');
    writeFileSync(templatePath, JSON.stringify({ Resources: { Queue: { Type: 'AWS::SQS::Queue' } } }));
    const chosen = controlsFor([templatePath]);
    expect(chosen.length).toBeGreaterThan(0);
    for (const control of chosen) expect(control.resourceTypes).toContain('AWS::SQS::Queue');
    const others = controlTowerControls().filter((control) => !chosen.includes(control));
    for (const control of others) expect(control.resourceTypes).not.toContain('AWS::SQS::Queue');
  });

  test("finds on a template what all of the package's controls find", () => {
    // A bare bucket breaks several S3 controls; the package's own plugin runs all 237 rules.
    const findingsWith = (plugin: IPolicyValidationPlugin) => {
      const app = testApp({ outdir: freshOutdir() });
      new CfnBucket(new Stack(app, 'Small'), 'BareBucket');
      Validations.of(app).addPlugins(plugin);
      expect(() => app.synth()).toThrow();
      const report = JSON.parse(readFileSync(path.join(app.outdir, 'validation-report.json'), 'utf8')) as {
        pluginReports: Array<{ violations: Array<{ ruleName: string; ruleMetadata?: { guardRule?: string } }> }>;
      };
      return report.pluginReports[0].violations.map((v) => v.ruleMetadata?.guardRule ?? v.ruleName).sort();
    };
    const chosen = findingsWith(new ControlTowerChecks());
    expect(chosen.length).toBeGreaterThanOrEqual(4);
    expect(chosen).toEqual(findingsWith(new CfnGuardValidator()));
  });
});
