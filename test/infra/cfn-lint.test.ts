/**
 * cfn-lint (AWS's CloudFormation linter, a Python tool: `pip install cfn-lint`) on every template
 * the app synthesizes: no error, and no warning but those .cfnlintrc.yaml keeps with a reason.
 * Synthesized once, with `waf` outside us-east-1, so both templates exist: the product stack and
 * the web ACL's companion stack. aws-cdk-lib's own CloudFormation validator runs in that synth too,
 * as under the CLI (the other synth tests leave it off: test/infra/support/synth.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, repoRoot } from './support/synth';

interface LintResult {
  readonly status: number | null;
  readonly findings: string[];
}

let outdir: string;
let templates: string[];
let lint: LintResult;

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'cfn-lint-'));
  const { app } = createTestApp({
    outdir,
    context: { waf: 'true' },
    deploymentTarget: { region: 'eu-west-1' },
    builtinValidation: true,
  });
  app.synth();
  templates = readdirSync(outdir)
    .filter((name) => name.endsWith('.template.json'))
    .map((name) => path.join(outdir, name));
  // From the repository root, so cfn-lint reads .cfnlintrc.yaml there.
  const run = spawnSync('cfn-lint', ['--format', 'parseable', '--', ...templates], { cwd: repoRoot, encoding: 'utf8' });
  if (run.error) throw new Error(`cfn-lint could not run (${run.error.message}): pip install cfn-lint`);
  lint = { status: run.status, findings: run.stdout.split('\n').filter((line) => line.trim() !== '') };
}, 180_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

test('the app synthesizes the product template, the web firewall template and the edge-monitoring template', () => {
  expect(templates.map((file) => path.basename(file)).sort()).toEqual([
    'First100DaysSite.template.json',
    'First100DaysSiteEdgeMonitoring.template.json',
    'First100DaysSiteWebFirewall.template.json',
  ]);
});

// The parseable format is `file:line:column:endLine:endColumn:RULE:message`; E is an error, W a warning.
const findingsOf = (level: 'E' | 'W') => lint.findings.filter((line) => line.split(':')[5]?.startsWith(level));

test('cfn-lint finds no error in any template', () => {
  expect(findingsOf('E')).toEqual([]);
});

test('cfn-lint reports no warning beyond those .cfnlintrc.yaml keeps with a reason', () => {
  expect(findingsOf('W')).toEqual([]);
});

test('cfn-lint exits 0, with no finding of any level (informational ones too)', () => {
  expect({ status: lint.status, findings: lint.findings }).toEqual({ status: 0, findings: [] });
});

test("aws-cdk-lib's built-in CloudFormation validator reports nothing in the synth", () => {
  const report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as {
    pluginReports: Array<{ pluginName: string; violations: unknown[] }>;
  };
  const builtin = report.pluginReports.filter(({ pluginName }) => pluginName === 'CloudFormation Validate');
  expect(builtin.flatMap(({ violations }) => violations)).toEqual([]);
});
