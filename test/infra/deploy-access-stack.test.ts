/**
 * The DeployAccess stack in a bare app, with only what it needs: GitHub's OIDC provider and one
 * role that only this repository's workflows in the stage's GitHub environment can assume, and
 * that may only assume CDK's bootstrap roles. The rule packs find nothing in it.
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
    expect(Object.keys(template.toJSON().Resources)).toHaveLength(2);
  });

  test('lets only the repository, in the GitHub environment named after the stage, assume the role', () => {
    const [role] = Object.values(template.findResources('AWS::IAM::Role'));
    const [providerId] = Object.keys(template.findResources('AWS::IAM::OIDCProvider'));
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: 'sts:AssumeRoleWithWebIdentity',
        Principal: { Federated: { Ref: providerId } },
        Condition: {
          StringEquals: {
            'token.actions.githubusercontent.com:sub': 'repo:some-org/first-100-days-site:environment:staging',
            'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
          },
        },
      },
    ]);
  });

  test("allows only sts:AssumeRole on CDK's deploy, file-publishing, image-publishing and lookup roles", () => {
    const [role] = Object.values(template.findResources('AWS::IAM::Role'));
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
    template.hasResourceProperties('AWS::IAM::Role', { MaxSessionDuration: Duration.hours(1).toSeconds() });
  });

  test("outputs the role's ARN, for the GitHub environment", () => {
    template.hasOutput('DeployRoleArn', { Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('DeployRole'), 'Arn'] } });
  });
});

describe("with githubOidcProviderArn, the account already having GitHub's provider", () => {
  const providerArn = 'arn:aws:iam::111111111111:oidc-provider/token.actions.githubusercontent.com';
  const { template } = deployAccess({ existingProviderArn: providerArn });

  test('creates no provider, so the existing one is neither replaced nor deleted with the stack', () => {
    template.resourceCountIs('AWS::IAM::OIDCProvider', 0);
  });

  test('the role trusts the existing provider, with the same repository and environment conditions', () => {
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [
          {
            Action: 'sts:AssumeRoleWithWebIdentity',
            Effect: 'Allow',
            Principal: { Federated: providerArn },
            Condition: {
              StringEquals: {
                'token.actions.githubusercontent.com:sub': 'repo:some-org/first-100-days-site:environment:staging',
                'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
              },
            },
          },
        ],
      },
    });
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
  const [role] = Object.values(template.findResources('AWS::IAM::Role'));
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
        ['AwsSolutions-IAM4', 'AwsSolutions-IAM5'].map((rule) => ({
          rule,
          path: 'DeployAccess/GitHubDeployAccess/DeployRole/Resource',
          compliant: true,
        })),
      ),
    );
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});
