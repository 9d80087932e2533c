/**
 * The deploy identity, judged with GitHub's token claims against the DeployAccess stack's trust
 * policies: only a push to main in the stage's environment reaches the deploy role; a pull
 * request's diff reaches the diff role only; another branch, another repository or a fork reaches
 * neither. A deploy role trusting any branch is found.
 */
import { githubTrustingRoles, judgeRun, workflowRuns } from '../../../../infra/tools/rehearsal/deploy-identity';
import { deployedStacks, resourcesOf, synthAssembly } from '../../support/deployed-app';

const repository = 'some-org/first-100-days-site';
let assembly: string;
beforeAll(() => {
  assembly = synthAssembly({ stage: 'staging', githubRepository: repository, waf: 'false' });
});

async function verdicts(stacks: ReturnType<typeof deployedStacks>) {
  const roles = githubTrustingRoles(stacks);
  const deploy = roles.find((role) => role.resource.logicalId.includes('DeployRole'))!;
  const diff = roles.find((role) => role.resource.logicalId.includes('DiffRole'))!;
  const results = [];
  for (const { run } of workflowRuns(repository, 'staging')) {
    results.push({
      run: run.description,
      deploys: (await judgeRun(deploy, run)).allowed,
      diffs: (await judgeRun(diff, run)).allowed,
    });
  }
  return results;
}

test('only a push to main in the environment may deploy; only a pull request in the environment may diff', async () => {
  const results = await verdicts(deployedStacks(assembly));
  expect(results).toEqual(
    workflowRuns(repository, 'staging').map(({ run, deploys, diffs }) => ({ run: run.description, deploys, diffs })),
  );
  expect(results.filter((result) => result.deploys).map((result) => result.run)).toEqual([
    'push to main in environment staging',
  ]);
});

test('a deploy role that trusts any branch lets another branch and a pull request deploy', async () => {
  const results = await verdicts(
    deployedStacks(assembly, {
      stack: 'DeployAccess',
      change: (template) => {
        for (const [logicalId, role] of resourcesOf(template, 'AWS::IAM::Role')) {
          if (!logicalId.includes('DeployRole')) continue;
          delete role.Properties.AssumeRolePolicyDocument.Statement[0].Condition.StringEquals[
            'token.actions.githubusercontent.com:ref'
          ];
        }
      },
    }),
  );
  expect(results.filter((result) => result.deploys).map((result) => result.run)).toEqual([
    'push to main in environment staging',
    'push to another branch in environment staging',
    "pull request's diff in environment staging",
  ]);
});
