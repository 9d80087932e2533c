/**
 * cdk-nag v3 (AwsSolutions) as the app runs it: the report has no unacknowledged error, every
 * acknowledgement is documented with a reason, and a new finding fails the synth.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { createTestApp, repoRoot } from './support/synth';

interface ValidationReport {
  pluginReports: Array<{
    pluginName: string;
    conclusion: string;
    violations: Array<{ ruleName: string; severity: string; violatingConstructs: Array<{ constructPath: string }> }>;
  }>;
}

const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d';

let outdirs: string[] = [];
function freshOutdir(): string {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-nag-'));
  outdirs.push(outdir);
  return outdir;
}
afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
  outdirs = [];
});

function readReport(outdir: string): ValidationReport {
  return JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
}

function errorsIn(report: ValidationReport): string[] {
  return report.pluginReports.flatMap((plugin) =>
    plugin.violations
      .filter((violation) => violation.severity === 'error')
      .map(
        (violation) =>
          `${violation.ruleName} at ${violation.violatingConstructs.map((c) => c.constructPath).join(', ')}`,
      ),
  );
}

/** The acknowledgements cdk-nag copied into the template (writeSuppressionsToCloudFormation). */
function acknowledgementsIn(outdir: string): Array<{ resource: string; id: string; reason: string }> {
  const template = JSON.parse(readFileSync(path.join(outdir, 'First100DaysSite.template.json'), 'utf8')) as {
    Resources: Record<
      string,
      { Metadata?: { cdk_nag?: { rules_to_suppress: Array<{ id: string; reason: string }> } } }
    >;
  };
  return Object.entries(template.Resources).flatMap(([resource, { Metadata }]) =>
    (Metadata?.cdk_nag?.rules_to_suppress ?? []).map(({ id, reason }) => ({ resource, id, reason })),
  );
}

describe('the AwsSolutions checks', () => {
  let outdir: string;
  beforeAll(() => {
    outdir = freshOutdir();
    createTestApp({ complianceChecks: true, outdir }).app.synth();
  });

  test('leave no unacknowledged error in cdk.out/validation-report.json', () => {
    expect(errorsIn(readReport(outdir))).toEqual([]);
  });

  test('leave no unacknowledged warning either', () => {
    const warnings = readReport(outdir).pluginReports.flatMap((plugin) =>
      plugin.violations.filter((violation) => violation.severity === 'warning').map((violation) => violation.ruleName),
    );
    expect(warnings).toEqual([]);
  });

  test('record every acknowledgement in the template, with a specific reason that the audit guide explains', () => {
    const auditGuide = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const acknowledgements = acknowledgementsIn(outdir);
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const { id, reason } of acknowledgements) {
      expect(reason.length).toBeGreaterThan(60);
      // The guide names each finding exactly as the report would (IAM5: with its wildcard).
      expect(auditGuide).toContain(id);
    }
  });

  test('need no default-certificate acknowledgement when a custom domain sets TLS 1.2_2021', () => {
    const customOutdir = freshOutdir();
    createTestApp({
      complianceChecks: true,
      outdir: customOutdir,
      context: { domainName: 'www.example.com', certificateArn },
    }).app.synth();
    expect(errorsIn(readReport(customOutdir))).toEqual([]);
    expect(acknowledgementsIn(customOutdir).map(({ id }) => id)).not.toContain('AwsSolutions-CFR4');
  });

  test.each(['us-east-1', 'eu-west-1'])(
    'leave no finding with -c waf=true in %s, and need no no-WAF acknowledgement there',
    (region) => {
      const wafOutdir = freshOutdir();
      createTestApp({
        complianceChecks: true,
        outdir: wafOutdir,
        context: { waf: 'true' },
        deploymentTarget: { account: '123456789012', region },
      }).app.synth();
      expect(readReport(wafOutdir).pluginReports).toEqual([]);
      expect(acknowledgementsIn(wafOutdir).map(({ id }) => id)).not.toContain('AwsSolutions-CFR2');
    },
  );

  test('fail the synth on a new finding', () => {
    const failingOutdir = freshOutdir();
    const { app, stack } = createTestApp({ complianceChecks: true, outdir: failingOutdir });
    new Bucket(stack, 'UnhardenedBucket'); // no access logs, no TLS-only policy
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
    expect(errorsIn(readReport(failingOutdir))).toEqual(
      expect.arrayContaining([
        'AwsSolutions-S1 at First100DaysSite/UnhardenedBucket/Resource',
        'AwsSolutions-S10 at First100DaysSite/UnhardenedBucket/Resource',
      ]),
    );
  });
});
