/**
 * The GitHub identities, judged with GitHub's token claims against the templates' trust policies:
 * only a push to main running deploy.yml in the stage's environment reaches the deploy role; a pull
 * request's ci.yml the diff role only; the Leads workflow dispatched from main the leads roles only;
 * another branch, another workflow, another repository or a fork reaches none. Each widening, made
 * on a copy of the synthesized template, fails the rehearsal naming the role and its statement.
 */
import { githubTrustingRoles, judgeRun, workflowRuns } from '../../../../infra/tools/rehearsal/deploy-identity';
import { rehearse } from '../../../../infra/tools/rehearsal/rehearsal';
import { judgeAccountTrusts, judgeGitHubTrusts } from '../../../../infra/tools/rehearsal/trust-expectations';
import { deployedStacks, resourcesOf, synthAssembly } from '../../support/deployed-app';

const repository = 'some-org/first-100-days-site';
const stage = 'First100DaysSite-staging';
const claim = (name: string) => `token.actions.githubusercontent.com:${name}`;
let assembly: string;
beforeAll(() => {
  assembly = synthAssembly({ stage: 'staging', githubRepository: repository, waf: 'false' });
});

type Template = Parameters<
  Parameters<typeof deployedStacks>[1] extends infer E ? (E extends { change: infer C } ? C : never) : never
>[0];

/** The runs that may assume each GitHub-trusting role (by the start of its logical id). */
async function allowedRuns(stacks: ReturnType<typeof deployedStacks>) {
  const allowed: Record<string, string[]> = {};
  for (const role of githubTrustingRoles(stacks)) {
    const name = role.resource.logicalId.replace(/[0-9A-F]{8}$/, '');
    allowed[name] = [];
    for (const { run } of workflowRuns(repository, 'staging'))
      if ((await judgeRun(role, run)).allowed) allowed[name].push(run.description);
  }
  return allowed;
}

/** The stage's leads reader role's trust condition, changed by `edit`. */
const readerTrust = (edit: (condition: Record<string, Record<string, unknown>>) => void) => ({
  stack: stage,
  change: (template: Template) => {
    for (const [logicalId, role] of resourcesOf(template, 'AWS::IAM::Role'))
      if (logicalId.startsWith('LeadsAccessReaderRole'))
        edit(role.Properties.AssumeRolePolicyDocument.Statement[0].Condition);
  },
});

test('each role trusting GitHub is assumed by its own runs only: deploy.yml on main, ci.yml in a pull request, the Leads workflow from main', async () => {
  expect(await allowedRuns(deployedStacks(assembly))).toEqual({
    GitHubDeployAccessDeployRole: ['push to main in environment staging'],
    GitHubDeployAccessDiffRole: ["pull request's diff in environment staging"],
    LeadsAccessReaderRole: ['Leads workflow dispatched from main in environment staging'],
    LeadsAccessOperatorRole: ['Leads workflow dispatched from main in environment staging'],
  });
  expect((await judgeGitHubTrusts(deployedStacks(assembly), repository, 'staging')).refusals).toEqual([]);
});

test('a deploy role that trusts any branch and any workflow lets another branch and a pull request deploy, and fails the rehearsal', async () => {
  const stacks = deployedStacks(assembly, {
    stack: 'DeployAccess',
    change: (template) => {
      for (const [logicalId, role] of resourcesOf(template, 'AWS::IAM::Role')) {
        if (!logicalId.includes('DeployRole')) continue;
        const condition = role.Properties.AssumeRolePolicyDocument.Statement[0].Condition.StringEquals;
        delete condition[claim('ref')];
        delete condition[claim('job_workflow_ref')];
      }
    },
  });
  expect((await allowedRuns(stacks)).GitHubDeployAccessDeployRole).toEqual([
    'push to main in environment staging',
    'push to another branch in environment staging',
    "pull request's diff in environment staging",
    'Leads workflow dispatched from main in environment staging',
    'Leads workflow dispatched from another branch in environment staging',
    'pull request running the Leads workflow in environment staging',
    'another workflow on main in environment staging',
  ]);
  const { refusals } = await rehearse(stacks, repository, 'staging');
  expect(refusals).toContainEqual(
    expect.stringMatching(
      /^GitHubDeployAccessDeployRole\S*: push to another branch in environment staging may assume it \(trust policy statement 0\), and must not$/,
    ),
  );
});

test('a leads role trusting another branch fails the rehearsal, naming the role and its statement', async () => {
  const stacks = deployedStacks(
    assembly,
    readerTrust((condition) => {
      delete condition.StringEquals[claim('ref')];
      delete condition.StringEquals[claim('job_workflow_ref')];
      condition.StringLike = {
        [claim('ref')]: 'refs/heads/*',
        [claim('job_workflow_ref')]: `${repository}/.github/workflows/leads.yml@refs/heads/*`,
      };
    }),
  );
  const { refusals } = await rehearse(stacks, repository, 'staging');
  expect(refusals).toEqual([
    expect.stringMatching(
      /^LeadsAccessReaderRole\S*: Leads workflow dispatched from another branch in environment staging may assume it \(trust policy statement 0\), and must not$/,
    ),
  ]);
});

test("a leads role trusting a pull request's job fails the rehearsal", async () => {
  const stacks = deployedStacks(
    assembly,
    readerTrust((condition) => {
      delete condition.StringEquals[claim('ref')];
      delete condition.StringEquals[claim('job_workflow_ref')];
      condition.StringLike = { [claim('job_workflow_ref')]: `${repository}/.github/workflows/leads.yml@*` };
    }),
  );
  const { refusals } = await judgeGitHubTrusts(stacks, repository, 'staging');
  expect(refusals).toContainEqual(
    expect.stringMatching(
      /^LeadsAccessReaderRole\S*: pull request running the Leads workflow in environment staging may assume it \(trust policy statement 0\), and must not$/,
    ),
  );
});

test('a leads role trusting repo:* fails the rehearsal: another repository may assume it', async () => {
  const stacks = deployedStacks(
    assembly,
    readerTrust((condition) => {
      for (const key of Object.keys(condition)) delete condition[key];
      condition.StringEquals = { [claim('aud')]: 'sts.amazonaws.com' };
      condition.StringLike = { [claim('sub')]: 'repo:*' };
    }),
  );
  const { refusals } = await judgeGitHubTrusts(stacks, repository, 'staging');
  expect(refusals).toContainEqual(
    expect.stringMatching(
      /^LeadsAccessReaderRole\S*: another repository's Leads workflow from main in environment staging may assume it \(trust policy statement 0\), and must not$/,
    ),
  );
});

test('the break-glass role admits its own administrators with MFA only; without the MFA condition the rehearsal fails', async () => {
  expect((await judgeAccountTrusts(deployedStacks(assembly))).refusals).toEqual([]);
  const stacks = deployedStacks(assembly, {
    stack: stage,
    change: (template) => {
      for (const [logicalId, role] of resourcesOf(template, 'AWS::IAM::Role'))
        if (logicalId.startsWith('LeadsAccessBreakGlassRole'))
          delete role.Properties.AssumeRolePolicyDocument.Statement[0].Condition;
    },
  });
  expect((await judgeAccountTrusts(stacks)).refusals).toEqual([
    expect.stringMatching(
      /^LeadsAccessBreakGlassRole\S*: an administrator of its account without MFA may assume it, and must not$/,
    ),
  ]);
});

test("a role trusting another account's principal fails the rehearsal, naming the role and the statement", async () => {
  const stacks = deployedStacks(assembly, {
    stack: stage,
    change: (template) => {
      for (const [logicalId, role] of resourcesOf(template, 'AWS::IAM::Role'))
        if (logicalId.startsWith('ApiSaveRequestSaveRequestRole'))
          role.Properties.AssumeRolePolicyDocument.Statement.push({
            Effect: 'Allow',
            Action: 'sts:AssumeRole',
            Principal: { AWS: 'arn:aws:iam::999999999999:root' },
          });
    },
  });
  expect((await judgeAccountTrusts(stacks)).refusals).toEqual([
    expect.stringMatching(
      /^ApiSaveRequestSaveRequestRole\S*: trust policy statement 1 admits arn:aws:iam::999999999999:root, beyond its expectation$/,
    ),
  ]);
});
