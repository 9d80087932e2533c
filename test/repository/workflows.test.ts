/**
 * The GitHub Actions workflows: valid for GitHub's own parser, every third-party action pinned to
 * a commit, least-privilege permissions, and the deploy road (staging, then production behind its
 * environment) as the docs describe it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const workflowsDirectory = path.join(process.cwd(), '.github/workflows');
const workflowFiles = readdirSync(workflowsDirectory).filter((name) => /\.ya?ml$/.test(name));

interface WorkflowStep {
  readonly id?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
  readonly env?: Record<string, string>;
}
interface WorkflowJob {
  readonly if?: string;
  readonly needs?: string | string[];
  readonly permissions?: Record<string, string> | string;
  readonly environment?: string | { readonly name: string; readonly deployment?: boolean };
  readonly concurrency?: { readonly group: string; readonly 'cancel-in-progress'?: boolean };
  readonly strategy?: { readonly matrix?: Record<string, unknown> };
  readonly steps: WorkflowStep[];
}
interface Workflow {
  readonly on: Record<string, unknown>;
  readonly permissions?: Record<string, string> | string;
  readonly jobs: Record<string, WorkflowJob>;
}

/** What GitHub's parser reports for each workflow, by file name: parsed in one process, on first use. */
let parserReports: Record<string, { errors: string[] }> | undefined;
function parsedWorkflows(): Record<string, { errors: string[] }> {
  parserReports ??= JSON.parse(
    execFileSync(
      path.join(process.cwd(), 'node_modules/.bin/tsx'),
      ['test/support/parse-workflow.ts', ...workflowFiles.map((name) => path.join(workflowsDirectory, name))],
      { encoding: 'utf8', timeout: 30_000 },
    ),
  ) as Record<string, { errors: string[] }>;
  return parserReports;
}

function readWorkflow(name: string): Workflow {
  return parse(readFileSync(path.join(workflowsDirectory, name), 'utf8')) as Workflow;
}

/** The step that exchanges the job's OIDC token for an AWS role. */

const isCredentialsStep = (step: WorkflowStep) =>
  step.uses?.startsWith('aws-actions/configure-aws-credentials@') === true;

const assumesRole = (job: WorkflowJob) => job.steps.some(isCredentialsStep);

/** The credentials step in force at step `index`: the last one before it. */
function credentialsAt(job: WorkflowJob, index: number): WorkflowStep | undefined {
  return job.steps.slice(0, index).findLast(isCredentialsStep);
}

/** CDK's bootstrap lookup role (ReadOnlyAccess) of the deploy role's account, in the stage's region. */
const lookupRoleArn =
  'arn:aws:iam::${{ steps.deploy-role.outputs.aws-account-id }}:role/cdk-hnb659fds-lookup-role-${{ steps.deploy-role.outputs.aws-account-id }}-${{ vars.AWS_REGION }}';

const environmentName = (job: WorkflowJob) =>
  typeof job.environment === 'string' ? job.environment : job.environment?.name;

/** Indexes of the steps whose `run` matches, in order. */
const runIndex = (job: WorkflowJob, pattern: RegExp) => job.steps.findIndex((step) => pattern.test(step.run ?? ''));

test('the repository has the CI, the deploy, the leads and the mail-key workflows', () => {
  expect(workflowFiles.sort()).toEqual(['ci.yml', 'deploy.yml', 'leads.yml', 'mail-key.yml']);
});

describe.each(workflowFiles)('%s', (name) => {
  const file = path.join(workflowsDirectory, name);
  const text = readFileSync(file, 'utf8');
  const workflow = readWorkflow(name);
  const jobs = Object.entries(workflow.jobs);

  test("GitHub's workflow parser finds no error", () => {
    expect(parsedWorkflows()[name]).toEqual({ errors: [] });
  });

  test('every third-party action is pinned to a full commit SHA with its version in a comment', () => {
    const uses = text.split('\n').filter((line) => /^\s*(- )?uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    const thirdParty = uses.filter((line) => !/uses:\s*\.\//.test(line));
    const unpinned = thirdParty.filter(
      (line) => !/uses:\s*[\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*\s*$/.test(line),
    );
    expect(unpinned).toEqual([]);
  });

  test('the workflow grants only read access to the contents by default', () => {
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  test('a job may write an OIDC token only when it assumes an AWS role, and every such job may', () => {
    const withIdToken = jobs.filter(
      ([, job]) => typeof job.permissions === 'object' && job.permissions['id-token'] === 'write',
    );
    expect(withIdToken.map(([id]) => id)).toEqual(jobs.filter(([, job]) => assumesRole(job)).map(([id]) => id));
  });

  test('no job is granted write access to anything but its OIDC token', () => {
    const writes = jobs.flatMap(([id, job]) =>
      typeof job.permissions === 'string'
        ? [`${id}: ${job.permissions}`]
        : Object.entries(job.permissions ?? {})
            .filter(([scope, access]) => access !== 'read' && access !== 'none' && scope !== 'id-token')
            .map(([scope, access]) => `${id}: ${scope}: ${access}`),
    );
    expect(writes).toEqual([]);
  });
});

describe('ci.yml', () => {
  const workflow = readWorkflow('ci.yml');

  test('runs on every pull request and every push', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
  });

  test('runs .ci/run with the npm cache of actions/setup-node', () => {
    const { steps } = workflow.jobs.test;
    expect(steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.cache).toBe('npm');
    expect(steps.some((step) => step.run?.trim() === '.ci/run')).toBe(true);
  });

  test('leaves the set-up to .ci/run, on Node.js 24: no step of its own installs what npm test needs', () => {
    const job = workflow.jobs.test;
    expect(job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(24);
    expect(runIndex(job, /apt-get|pipx|pip install/)).toBe(-1);
  });

  test('on pull requests, diffs staging and production in their environments and posts the diff as the job summary', () => {
    const { diff } = workflow.jobs;
    expect(diff.if).toBe("github.event_name == 'pull_request'");
    expect(diff.strategy?.matrix?.stage).toEqual(['staging', 'production']);
    expect(environmentName(diff)).toBe('${{ matrix.stage }}');
    expect(runIndex(diff, /npx cdk diff .*-c stage="\$STAGE"/)).toBeGreaterThan(-1);
    expect(runIndex(diff, /\$GITHUB_STEP_SUMMARY/)).toBeGreaterThan(runIndex(diff, /npx cdk diff/));
  });

  test("the pull request's diff assumes the stage's diff role, never the deploy role, and reads templates only", () => {
    const { diff } = workflow.jobs;
    const credentials = diff.steps.find((step) => step.uses?.startsWith('aws-actions/configure-aws-credentials@'));
    expect(credentials?.with?.['role-to-assume']).toBe('${{ vars.DIFF_ROLE_ARN }}');
    expect(JSON.stringify(diff)).not.toContain('DEPLOY_ROLE_ARN');
    // A change set (the default method) needs CDK's deploy role; --method=template reads with the lookup role.
    expect(runIndex(diff, /npx cdk diff .*--method=template/)).toBeGreaterThan(-1);
  });
});

describe('deploy.yml', () => {
  const workflow = readWorkflow('deploy.yml');
  const { staging, production } = workflow.jobs;

  test('runs when CI completes on main, and on demand (the integration test)', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['workflow_dispatch', 'workflow_run']);
    expect(workflow.on.workflow_run).toEqual({ workflows: ['CI'], types: ['completed'], branches: ['main'] });
    expect(readWorkflow('ci.yml')).toMatchObject({ name: 'CI' });
  });

  test("deploys only after a green CI of a push to this repository's main", () => {
    const conditions = (staging.if ?? '').split('&&').map((condition) => condition.trim());
    expect(conditions.sort()).toEqual(
      [
        "github.event_name == 'workflow_run'",
        "github.event.workflow_run.conclusion == 'success'",
        "github.event.workflow_run.event == 'push'",
        "github.event.workflow_run.head_branch == 'main'",
        'github.event.workflow_run.head_repository.full_name == github.repository',
      ].sort(),
    );
    // Production runs only after staging succeeded (no `if` of its own lets it run otherwise).
    expect(production.if).toBeUndefined();
  });

  test.each([
    ['staging', staging],
    ['production', production],
  ])('%s checks out the very commit CI tested', (_, job) => {
    const checkout = job.steps.find((step) => step.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.ref).toBe('${{ github.event.workflow_run.head_sha }}');
  });

  test.each([
    ['staging', staging],
    ['production', production],
  ])('the %s job deploys in its own environment', (stage, job) => {
    expect(environmentName(job)).toBe(stage);
  });

  test('two deploys of one stage never overlap, and a running one is never cancelled', () => {
    expect(staging.concurrency).toEqual({ group: 'deploy-staging', 'cancel-in-progress': false });
    expect(production.concurrency).toEqual({ group: 'deploy-production', 'cancel-in-progress': false });
  });

  test('production waits for staging', () => {
    expect([production.needs].flat()).toEqual(['staging']);
  });

  test.each([
    ['staging', staging, 'First100DaysSite-staging'],
    ['production', production, 'First100DaysSite'],
  ])('%s runs the preflight, deploys, then smoke-tests its stack', (stage, job, stackName) => {
    const preflight = runIndex(job, new RegExp(`^npm run preflight -- -c stage=${stage}$`));
    const deploy = runIndex(job, new RegExp(`^npx cdk deploy .*-c stage=${stage} --require-approval never`));
    const smoke = runIndex(job, new RegExp(`^npm run smoke -- "\\$SITE_URL" --stack ${stackName}$`));
    expect(preflight).toBeGreaterThan(-1);
    expect(deploy).toBeGreaterThan(preflight);
    expect(smoke).toBeGreaterThan(deploy);
  });

  describe.each([
    ['staging', staging, 'First100DaysSite-staging'],
    ['production', production, 'First100DaysSite'],
  ])('the %s job', (stage, job, stackName) => {
    const preflight = runIndex(job, new RegExp(`^npm run preflight -- -c stage=${stage}$`));
    const deploy = runIndex(job, /^npx cdk deploy /);
    const smoke = runIndex(job, new RegExp(`^npm run smoke -- "\\$SITE_URL" --stack ${stackName}$`));

    test('assumes the deploy role, the step other steps read its account from', () => {
      const deployRole = job.steps.find((step) => step.id === 'deploy-role');
      expect(deployRole?.with?.['role-to-assume']).toBe('${{ vars.DEPLOY_ROLE_ARN }}');
      expect(job.steps.indexOf(deployRole!)).toBeLessThan(preflight);
    });

    test.each([
      ['preflight', preflight],
      ['smoke test', smoke],
    ])('runs the %s, which only reads, as the lookup role chained from the deploy role', (_, index) => {
      expect(index).toBeGreaterThan(-1);
      expect(credentialsAt(job, index)?.with).toEqual(
        expect.objectContaining({
          'role-chaining': true,
          'role-to-assume': lookupRoleArn,
          'aws-region': '${{ vars.AWS_REGION }}',
          'role-skip-session-tagging': true,
        }),
      );
    });

    test("deploys the product's stacks only, with this repository, so the stack keeps the leads workflow's roles", () => {
      expect(job.steps[deploy]?.run).toMatch(
        new RegExp(
          `^npx cdk deploy 'First100DaysSite\\*' -c githubRepository="\\$GITHUB_REPOSITORY" -c stage=${stage} `,
        ),
      );
    });

    test('deploys with the deploy role itself, not the lookup role', () => {
      const credentials = credentialsAt(job, deploy)?.with;
      expect(credentials?.['role-to-assume']).toBe('${{ vars.DEPLOY_ROLE_ARN }}');
      expect(credentials?.['role-chaining']).toBeUndefined();
    });
  });

  test.each([
    ['staging', staging],
    ['production', production],
  ])(
    "%s builds the site as its stage, with the stage's siteUrl and mailProvider from cdk.json, before it deploys",
    (stage, job) => {
      const build = runIndex(job, /npm run build$/);
      expect(job.steps[build].run).toBe(
        `STAGE=${stage} SITE_URL="$(jq -er '.context.stages.${stage}.siteUrl' cdk.json)" MAIL_PROVIDER="$(jq -r '.context.stages.${stage}.mailProvider // empty' cdk.json)" npm run build`,
      );
      expect(build).toBeLessThan(runIndex(job, /^npx cdk deploy /));
      const cdkJson = JSON.parse(readFileSync('cdk.json', 'utf8')) as {
        context: { stages: Record<string, { siteUrl?: string }> };
      };
      expect(cdkJson.context.stages[stage].siteUrl).toMatch(/^https:\/\//);
    },
  );

  test('the integration test deploys with the deploy role, as cdk deploy does', () => {
    const job = workflow.jobs['integration-test'];
    const credentials = credentialsAt(job, runIndex(job, /^npm run integ$/))?.with;
    expect(credentials?.['role-to-assume']).toBe('${{ vars.DEPLOY_ROLE_ARN }}');
    expect(credentials?.['role-chaining']).toBeUndefined();
  });

  test('the integration test runs only on demand, in the staging account, never beside a staging deploy', () => {
    const job = workflow.jobs['integration-test'];
    expect(job.if).toBe("github.event_name == 'workflow_dispatch'");
    expect(environmentName(job)).toBe('staging');
    expect(job.concurrency).toEqual(staging.concurrency);
    expect(runIndex(job, /^npm run integ$/)).toBeGreaterThan(-1);
  });
});

describe('mail-key.yml', () => {
  const workflow = readWorkflow('mail-key.yml');
  const job = workflow.jobs.store;
  const run = job.steps.find((step) => step.run?.includes('put-secret-value'))?.run ?? '';

  test('starts only from the Actions tab, with the stage to store the key for', () => {
    expect(Object.keys(workflow.on)).toEqual(['workflow_dispatch']);
    const { inputs } = workflow.on.workflow_dispatch as { inputs: Record<string, { options?: string[] }> };
    expect(Object.keys(inputs)).toEqual(['stage']);
    expect(inputs.stage.options).toEqual(['production', 'staging']);
  });

  test("runs in the stage's protected environment as the role the stack creates for it", () => {
    expect(environmentName(job)).toBe('${{ inputs.stage }}');
    expect(job.steps.filter(isCredentialsStep).map((step) => step.with?.['role-to-assume'])).toEqual([
      '${{ vars.MAIL_KEY_ROLE_ARN }}',
    ]);
  });

  test("writes the environment's secret into the stack's secret, through a file, never on a command line or in the log", () => {
    expect(job.steps.find((step) => step.run === run)?.env?.MAIL_PROVIDER_KEY).toBe('${{ secrets.MAIL_PROVIDER_KEY }}');
    expect(run).toContain("OutputKey=='MailProviderSecretArn'");
    expect(run).toContain('put-secret-value --secret-id "$secret_arn" --secret-string "file://$key_file"');
    expect(run).not.toMatch(/echo[^\n]*\$MAIL_PROVIDER_KEY/);
    expect(run).not.toContain('secrets.');
  });
});

describe('leads.yml', () => {
  const text = readFileSync(path.join(workflowsDirectory, 'leads.yml'), 'utf8');
  const workflow = readWorkflow('leads.yml');
  const job = workflow.jobs.leads;
  const run = job.steps.find((step) => step.run?.includes('npm run --silent leads'))?.run ?? '';

  test('starts only from the Actions tab, with a form: the job, the stage, the address', () => {
    expect(Object.keys(workflow.on)).toEqual(['workflow_dispatch']);
    const { inputs } = workflow.on.workflow_dispatch as { inputs: Record<string, { options?: string[] }> };
    expect(Object.keys(inputs)).toEqual(['job', 'stage', 'address']);
    expect(inputs.job.options).toEqual([
      'export',
      'erase',
      'unsent',
      'resend',
      'funnel',
      'sending-status',
      'sending-pause',
      'sending-resume',
      'dead-letters-list',
      'dead-letters-redrive',
      'stuck-list',
      'stuck-clear-unknown',
    ]);
    expect(inputs.stage.options).toEqual(['production', 'staging']);
  });

  test("runs in the stage's protected environment and assumes only the roles the stack creates for it", () => {
    expect(environmentName(job)).toBe('${{ inputs.stage }}');
    const credentials = job.steps.filter(isCredentialsStep);
    expect(credentials.map((step) => step.with?.['role-to-assume'])).toEqual([
      "${{ (inputs.job == 'export' || inputs.job == 'erase' || inputs.job == 'funnel') && vars.LEADS_READER_ROLE_ARN || vars.LEADS_OPERATOR_ROLE_ARN }}",
    ]);
  });

  test('does each job with the local command against the stage stack: export by mail, erase into the job summary', () => {
    expect(run).toContain('leads -- export --mail --stack "$STACK"');
    expect(run).toContain('leads -- funnel --days 14 --stack "$STACK"');
    expect(run).toContain('leads -- erase "$address" --yes --stack "$STACK" --summary "$GITHUB_STEP_SUMMARY"');
    expect(run).toContain('leads -- unsent --stack "$STACK"');
    expect(run).toContain('leads -- resend --yes --stack "$STACK"');
  });

  test("gives the operator's runbook steps a choice each, as the leads operator role: sending and the dead letters", () => {
    expect(run).toContain('sending-status | sending-pause | sending-resume)');
    expect(run).toContain('sending -- "${JOB#sending-}" --stack "$STACK"');
    expect(run).toContain('leads -- dead-letters list --stack "$STACK"');
    expect(run).toContain('leads -- dead-letters redrive --yes --stack "$STACK"');
  });

  test('gives the stuck requests a choice to list them and one to mark them unknown, never failed', () => {
    expect(run).toContain('leads -- stuck list --stack "$STACK"');
    expect(run).toContain('leads -- stuck clear --older-than 1d --as unknown --yes --stack "$STACK"');
    expect(run).not.toContain('--as failed');
  });

  test('stores nothing: no artifact, no cache of the output', () => {
    expect(text).not.toMatch(/upload-artifact|actions\/cache@/);
  });

  test('never puts the address in an expression, a script or an environment the log shows, and masks it first', () => {
    expect(text).not.toMatch(/\$\{\{\s*(github\.event\.)?inputs\.address/);
    expect(job.steps[0].run).toContain('::add-mask::');
  });
});
