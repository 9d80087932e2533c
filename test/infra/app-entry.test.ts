/**
 * The app entry as the cdk CLI runs it: a missing or malformed senderEmail, an unknown stage or
 * a stage missing a value stops it before any construct is built, with the message and nothing
 * else (no stack trace). Its default synth is also what cfn-lint (AWS's CloudFormation linter, a
 * Python tool: `pip install cfn-lint`) lints: every template, with `waf` outside us-east-1 so the
 * web ACL's companion stack is there too, and aws-cdk-lib's own CloudFormation validator on, as
 * under the CLI (the other synth tests leave it off: test/infra/support/synth.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cdkJsonContext, repoRoot } from './support/synth';

/** A refused context stops the app within seconds; a minute still leaves room on a busy machine. */
const refusalTimeout = 60_000;
/**
 * A full synth runs the three rule packs over every stack (Control Tower's cfn-guard pack is the
 * slow one) and cannot be made lighter from outside the app entry: 2.5 minutes were measured on
 * the shared 2-core CI-like machine, so 5 minutes, both for the child and for jest.
 */
const fullSynthTimeout = 300_000;

/** What the app wrote, read before its folder is removed. */
type Inspect<T> = (outdir: string) => T;

function runApp<T = undefined>(
  context: Record<string, unknown>,
  env: Record<string, string | undefined> = {},
  timeout = refusalTimeout,
  inspect?: Inspect<T>,
) {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-app-entry-'));
  // How the CLI hands context (cdk.json's, then -c values) and the output folder to the app;
  // `undefined` removes a variable.
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    CDK_CONTEXT_JSON: JSON.stringify({ ...cdkJsonContext(), ...context }),
    CDK_OUTDIR: outdir,
  };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  try {
    const result = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'infra/app.ts'], {
      cwd: repoRoot,
      env: childEnv,
      encoding: 'utf8',
      timeout,
    });
    const outputFiles = readdirSync(outdir);
    const auditReport = outputFiles.includes('audit-report.md')
      ? readFileSync(path.join(outdir, 'audit-report.md'), 'utf8')
      : undefined;
    return { ...result, outputFiles, auditReport, inspected: inspect?.(outdir) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

interface LintResult {
  readonly status: number | null;
  readonly findings: string[];
}

interface DefaultSynth {
  readonly templates: string[];
  readonly lint: LintResult;
  readonly validationReport: { pluginReports: Array<{ pluginName: string; violations: unknown[] }> };
}

/** cfn-lint on every template the synth wrote, from the repository root so it reads .cfnlintrc.yaml there. */
function lintTemplates(outdir: string): DefaultSynth {
  const templates = readdirSync(outdir)
    .filter((name) => name.endsWith('.template.json'))
    .sort();
  const run = spawnSync(
    'cfn-lint',
    ['--format', 'parseable', '--', ...templates.map((name) => path.join(outdir, name))],
    {
      cwd: repoRoot,
      encoding: 'utf8',
    },
  );
  if (run.error) throw new Error(`cfn-lint could not run (${run.error.message}): pip install cfn-lint`);
  return {
    templates,
    lint: { status: run.status, findings: run.stdout.split('\n').filter((line) => line.trim() !== '') },
    validationReport: JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as never,
  };
}

// The parseable format is `file:line:column:endLine:endColumn:RULE:message`; E is an error, W a warning.
const findingsOf = (lint: LintResult, level: 'E' | 'W') =>
  lint.findings.filter((line) => line.split(':')[5]?.startsWith(level));

describe('the app entry (infra/app.ts)', () => {
  test('stops without senderEmail, saying to pass -c senderEmail=you@yourdomain.com, and writes nothing', () => {
    const result = runApp({});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('senderEmail is missing');
    expect(result.stderr).toContain('-c senderEmail=you@yourdomain.com');
    expect(result.stderr).not.toMatch(/\bat .+\.ts:\d+/); // no stack trace
    expect(result.outputFiles).toEqual([]);
  });

  test('stops with a malformed senderEmail and names the bad value', () => {
    const result = runApp({ senderEmail: 'cheatsheet.example.com' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('senderEmail "cheatsheet.example.com" is not an e-mail address');
    expect(result.outputFiles).toEqual([]);
  });

  describe('by default, with the CLI targeting eu-west-1', () => {
    let result: ReturnType<typeof runApp<DefaultSynth>>;
    let synth: DefaultSynth;
    beforeAll(() => {
      result = runApp(
        // No esbuild here: only the stacks' layout is looked at (needs npm run build, like every synth).
        { senderEmail: 'cheatsheet@example.com', 'aws:cdk:bundling-stacks': [] },
        { CDK_DEFAULT_REGION: 'eu-west-1', CDK_DEFAULT_ACCOUNT: '123456789012' },
        fullSynthTimeout,
        lintTemplates,
      );
      synth = result.inspected!;
    }, fullSynthTimeout);

    test('places the web ACL in a us-east-1 companion stack, and writes the reports', () => {
      expect(result.stderr).not.toMatch(/error/i);
      expect(result.status).toBe(0);
      expect(result.outputFiles).toEqual(
        expect.arrayContaining([
          'First100DaysSite.template.json',
          'First100DaysSiteWebFirewall.template.json',
          'validation-report.json',
          'audit-report.md',
        ]),
      );
    });

    test('synthesizes the product template, the web firewall template and the edge-monitoring template', () => {
      expect(synth.templates).toEqual([
        'First100DaysSite.template.json',
        'First100DaysSiteEdgeMonitoring.template.json',
        'First100DaysSiteWebFirewall.template.json',
      ]);
    });

    test('cfn-lint finds no error in any template', () => {
      expect(findingsOf(synth.lint, 'E')).toEqual([]);
    });

    test('cfn-lint reports no warning beyond those .cfnlintrc.yaml keeps with a reason', () => {
      expect(findingsOf(synth.lint, 'W')).toEqual([]);
    });

    test('cfn-lint exits 0, with no finding of any level (informational ones too)', () => {
      expect({ status: synth.lint.status, findings: synth.lint.findings }).toEqual({ status: 0, findings: [] });
    });

    test("aws-cdk-lib's built-in CloudFormation validator reports nothing in the synth", () => {
      const builtin = synth.validationReport.pluginReports.filter(
        ({ pluginName }) => pluginName === 'CloudFormation Validate',
      );
      expect(builtin.flatMap(({ violations }) => violations)).toEqual([]);
    });
  });

  test(
    "with -c stage=staging, synthesizes that stage's stacks and writes its audit report, stamped with the stage",
    () => {
      const result = runApp({ stage: 'staging', 'aws:cdk:bundling-stacks': [] }, {}, fullSynthTimeout);
      expect(result.stderr).not.toMatch(/error/i);
      expect(result.status).toBe(0);
      expect(result.outputFiles).toEqual(
        expect.arrayContaining([
          'First100DaysSite-staging.template.json',
          'First100DaysSiteEdgeMonitoring-staging.template.json',
        ]),
      );
      // The stage's own stacks, in its account and region, and the stage in the stamp.
      expect(result.auditReport).toContain('`First100DaysSite-staging` (account 111111111111, region eu-west-1)');
      expect(result.auditReport).toMatch(
        /\| [0-9a-f]{40}[^|]* \| \d{4}-\d\d-\d\dT[^|]+ \| 2\.\d+\.\d+ \| v\d+[^|]* \| staging \|/,
      );
      expect(result.auditReport).toContain('## Personal data');
      expect(result.auditReport).toContain('## Who can read the leads');
    },
    fullSynthTimeout,
  );

  test('by default, with no region known, stops saying how to give one or how to go without the web ACL', () => {
    const result = runApp(
      { senderEmail: 'cheatsheet@example.com' },
      { CDK_DEFAULT_REGION: undefined, AWS_REGION: undefined },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('The web ACL (waf, on by default) needs the region the stack is deployed to');
    expect(result.stderr).toContain('-c waf=false');
    expect(result.outputFiles).toEqual([]);
  });

  test('stops on an unknown stage with one line naming it, and writes nothing', () => {
    const result = runApp({ stage: 'qa' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Unknown stage "qa": -c stage takes a key of "stages" in cdk.json (one of staging, production).',
    );
    expect(result.outputFiles).toEqual([]);
  });

  test('stops on a stage missing a value it needs with one line naming the stage and the value', () => {
    const stages = {
      qa: {
        account: '111111111111',
        region: 'eu-west-1',
        senderEmail: 'cheatsheet@example.com',
        siteUrl: 'https://qa.example.com',
      },
    };
    const result = runApp({ stages, stage: 'qa' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('Stage "qa" has no alarmEmail: set stages.qa.alarmEmail in cdk.json.');
    expect(result.outputFiles).toEqual([]);
  });

  test('stops on a githubRepository that is not owner/name with one line naming it', () => {
    const result = runApp({ stage: 'staging', githubRepository: 'first-100-days-site' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'githubRepository "first-100-days-site" must be owner/name on GitHub, e.g. -c githubRepository=your-org/first-100-days-site.',
    );
    expect(result.outputFiles).toEqual([]);
  });
});
