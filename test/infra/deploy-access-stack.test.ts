/**
 * The DeployAccess stack in a bare app, with only what it needs: GitHub's OIDC provider, the
 * deploy role that only this repository's workflows on main in the stage's GitHub environment can
 * assume, and that may only assume CDK's bootstrap roles, and the diff role of its pull requests,
 * which may only assume the lookup role. The rule packs find nothing in it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { buildAuditReport } from '../../infra/tools/audit-report';
import { addComplianceChecks } from '../../infra/tools/compliance-checks';
import { DeployAccessStack, type DeployAccessStackProps } from '../../infra/deploy-access-stack';
import { parseDeploymentConfig } from '../../infra/config';
import { createAppStacks } from '../../infra/stacks';
import { fixtures, testApp } from './support/synth';

const env = { account: '111111111111', region: 'eu-west-1' };
const repository = { owner: 'some-org', name: 'first-100-days-site' };

// cdk.json's feature flags, as the app has them (partition literals among them).
function deployAccess(props: Partial<DeployAccessStackProps> = {}) {
  const app = testApp();
  const stack = new DeployAccessStack(app, 'DeployAccess', { env, repository, environment: 'staging', ...props });
  return { app, stack, template: Template.fromStack(stack) };
}

type RoleResource = {
  Properties: { AssumeRolePolicyDocument: { Statement: unknown[] }; Policies: any[] } & Record<string, any>;
};

/** The role whose logical id starts with `GitHubDeployAccess<id>`. */
function roleNamed(template: Template, id: 'DeployRole' | 'DiffRole'): RoleResource {
  const [role] = Object.entries(template.findResources('AWS::IAM::Role'))
    .filter(([logicalId]) => logicalId.startsWith(`GitHubDeployAccess${id}`))
    .map(([, resource]) => resource as RoleResource);
  return role;
}

const claimsOf = (ref: Record<string, unknown>) => ({
  StringEquals: {
    'token.actions.githubusercontent.com:sub': 'repo:some-org/first-100-days-site:environment:staging',
    'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
    'token.actions.githubusercontent.com:repository': 'some-org/first-100-days-site',
    'token.actions.githubusercontent.com:environment': 'staging',
    ...(ref.StringEquals as object),
  },
  ...(ref.StringLike ? { StringLike: ref.StringLike } : {}),
});
const mainOnly = claimsOf({
  StringEquals: {
    'token.actions.githubusercontent.com:ref': 'refs/heads/main',
    'token.actions.githubusercontent.com:job_workflow_ref':
      'some-org/first-100-days-site/.github/workflows/deploy.yml@refs/heads/main',
  },
});

const bootstrapRole = (kind: string, region = 'eu-west-1') =>
  `arn:aws:iam::111111111111:role/cdk-hnb659fds-${kind}-role-111111111111-${region}`;

describe('the DeployAccess stack', () => {
  const { template } = deployAccess();

  test("registers GitHub Actions' token issuer with STS as the only audience, natively (no custom resource)", () => {
    template.resourceCountIs('AWS::IAM::OIDCProvider', 1);
    template.hasResourceProperties('AWS::IAM::OIDCProvider', {
      Url: 'https://token.actions.githubusercontent.com',
      ClientIdList: ['sts.amazonaws.com'],
    });
    template.resourceCountIs('AWS::Lambda::Function', 0);
    expect(Object.keys(template.toJSON().Resources)).toHaveLength(3);
  });

  test("lets only the repository's deploy workflow, on main, in the GitHub environment named after the stage, assume the deploy role", () => {
    const role = roleNamed(template, 'DeployRole');
    const [providerId] = Object.keys(template.findResources('AWS::IAM::OIDCProvider'));
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: 'sts:AssumeRoleWithWebIdentity',
        Principal: { Federated: { Ref: providerId } },
        Condition: mainOnly,
      },
    ]);
  });

  test("lets the repository's pull requests' CI workflow in the stage's environment assume the diff role, which may assume the lookup role only", () => {
    const role = roleNamed(template, 'DiffRole');
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Condition: claimsOf({
          StringEquals: {},
          StringLike: {
            'token.actions.githubusercontent.com:ref': 'refs/pull/*/merge',
            'token.actions.githubusercontent.com:job_workflow_ref':
              'some-org/first-100-days-site/.github/workflows/ci.yml@refs/pull/*/merge',
          },
        }),
      }),
    ]);
    expect(role.Properties.Policies).toEqual([
      {
        PolicyName: 'AssumeCdkLookupRoles',
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: 'sts:AssumeRole', Resource: bootstrapRole('lookup') }],
        },
      },
    ]);
  });

  test("allows only sts:AssumeRole on CDK's deploy, file-publishing, image-publishing and lookup roles", () => {
    const role = roleNamed(template, 'DeployRole');
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role.Properties.Policies).toEqual([
      {
        PolicyName: 'AssumeCdkBootstrapRoles',
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Action: 'sts:AssumeRole',
              Resource: ['deploy', 'file-publishing', 'image-publishing', 'lookup'].map((kind) => bootstrapRole(kind)),
            },
          ],
        },
      },
    ]);
    template.resourceCountIs('AWS::IAM::Policy', 0);
    template.resourceCountIs('AWS::IAM::ManagedPolicy', 0);
  });

  test('limits a session to one hour', () => {
    expect(roleNamed(template, 'DeployRole').Properties.MaxSessionDuration).toBe(Duration.hours(1).toSeconds());
    expect(roleNamed(template, 'DiffRole').Properties.MaxSessionDuration).toBe(Duration.hours(1).toSeconds());
  });

  test("outputs both roles' ARNs, for the GitHub environment", () => {
    template.hasOutput('DeployRoleArn', { Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('DeployRole'), 'Arn'] } });
    template.hasOutput('DiffRoleArn', { Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('DiffRole'), 'Arn'] } });
  });
});

describe("with githubOidcProviderArn, the account already having GitHub's provider", () => {
  const providerArn = 'arn:aws:iam::111111111111:oidc-provider/token.actions.githubusercontent.com';
  const { template } = deployAccess({ existingProviderArn: providerArn });

  test('creates no provider, so the existing one is neither replaced nor deleted with the stack', () => {
    template.resourceCountIs('AWS::IAM::OIDCProvider', 0);
  });

  test('the role trusts the existing provider, with the same repository, environment and branch conditions', () => {
    expect(roleNamed(template, 'DeployRole').Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRoleWithWebIdentity',
        Effect: 'Allow',
        Principal: { Federated: providerArn },
        Condition: mainOnly,
      },
    ]);
  });
});

test('the app passes githubOidcProviderArn from the context to the DeployAccess stack', () => {
  const providerArn = 'arn:aws:iam::111111111111:oidc-provider/token.actions.githubusercontent.com';
  const app = testApp({
    context: { stage: 'staging', githubRepository: 'some-org/first-100-days-site', githubOidcProviderArn: providerArn },
  });
  const config = parseDeploymentConfig((key) => app.node.tryGetContext(key));
  const { deployAccess: stack } = createAppStacks(app, {
    config,
    deploymentTarget: {},
    buildOutput: fixtures,
  });
  const template = Template.fromStack(stack!);
  template.resourceCountIs('AWS::IAM::OIDCProvider', 0);
  template.hasResourceProperties('AWS::IAM::Role', {
    AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Federated: providerArn } })] },
  });
});

test("also allows the bootstrap roles of each region given (the firewall stack's us-east-1)", () => {
  const { template } = deployAccess({ regions: ['eu-west-1', 'us-east-1'] });
  const role = roleNamed(template, 'DeployRole');
  const resources = role.Properties.Policies[0].PolicyDocument.Statement[0].Resource as string[];
  expect(resources).toHaveLength(8);
  expect(resources).toEqual(expect.arrayContaining([bootstrapRole('deploy', 'us-east-1'), bootstrapRole('lookup')]));
});

test('leaves nothing open and accepts nothing in the rule packs the app runs', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'deploy-access-'));
  try {
    const app = testApp({ outdir });
    // Not through deployAccess(): its Template would synthesize the app before the packs are added.
    new DeployAccessStack(app, 'DeployAccess', { env, repository, environment: 'staging' });
    const checks = addComplianceChecks(app);
    const report = buildAuditReport({ assembly: app.synth(), nagPacks: checks.nagPacks });
    expect(report.open).toEqual([]);
    expect(report.accepted).toEqual([]);
    // The packs did look at the role: IAM4 and IAM5 judged it compliant.
    const judged = checks.nagPacks.flatMap((pack) => pack.evaluations);
    expect(judged).toEqual(
      expect.arrayContaining(
        ['AwsSolutions-IAM4', 'AwsSolutions-IAM5'].flatMap((rule) =>
          ['DeployRole', 'DiffRole'].map((role) => ({
            rule,
            path: `DeployAccess/GitHubDeployAccess/${role}/Resource`,
            compliant: true,
          })),
        ),
      ),
    );
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});
