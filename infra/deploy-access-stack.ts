/**
 * Deploy access without stored keys: GitHub's OIDC provider (or, with `githubOidcProviderArn`, the
 * account's existing one) and two roles:
 *
 * - the deploy role, which only a workflow of one repository running on `main` in the GitHub
 *   environment named after the stage can assume; it may do nothing but assume CDK's bootstrap
 *   roles (which do the deploying, as they do for an operator's `cdk deploy`);
 * - the diff role, which a pull request's workflow in that environment can assume; it may assume
 *   CDK's lookup roles only (read-only, no key's data), enough for `cdk diff --method=template`
 *   and never for a deploy.
 *
 * An administrator deploys it once per account:
 * `npx cdk deploy DeployAccess -c githubRepository=OWNER/NAME -c stage=NAME`.
 */
import { CfnOutput, DefaultStackSynthesizer, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { OidcProviderNative, PolicyDocument, PolicyStatement, Role, type IOidcProvider } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { GitHubRepository } from './config';
import {
  githubTokenAudience,
  githubTokenIssuer,
  githubWorkflowPrincipal,
  mainBranchRef,
  pullRequestRefPattern,
  roleWorkflows,
} from './constructs/github-workflow-trust';

export { githubTokenAudience, githubTokenIssuer, pullRequestRefPattern };

/** The construct id and stack name the deploy command names. */
export const deployAccessStackName = 'DeployAccess';

/** The CDK bootstrap roles a `cdk deploy` assumes (image-publishing only matters once an image asset exists). */
export const bootstrapRoleKinds = ['deploy', 'file-publishing', 'image-publishing', 'lookup'] as const;
/** The one bootstrap role `cdk diff --method=template` needs: it reads the deployed template. */
export const diffRoleKinds = ['lookup'] as const;

/** The branch whose pushes deploy: the only ref the deploy role trusts. */
export const deployBranchRef = mainBranchRef;

export interface GitHubDeployAccessProps {
  /** The repository whose workflows may assume the role. */
  readonly repository: GitHubRepository;
  /** The GitHub environment (the stage's name) a workflow job must run in. */
  readonly environment: string;
  /**
   * The account's existing GitHub OIDC provider (IAM allows one per issuer URL): trusted as it is,
   * neither changed nor deleted with this stack, so other teams' roles that trust it keep working.
   *
   * @default - the stack creates the provider
   */
  readonly existingProviderArn?: string;
  /**
   * Regions whose bootstrap roles the role may assume.
   *
   * @default - this stack's region
   */
  readonly regions?: readonly string[];
  /**
   * The bootstrap qualifier (`cdk bootstrap --qualifier`).
   *
   * @default `hnb659fds`, CDK's default
   */
  readonly bootstrapQualifier?: string;
  /**
   * How long one session lasts: a whole pipeline run (both stacks of a stage and a smoke test)
   * fits well inside it, and a leaked token is useless after it.
   *
   * @default 1 hour
   */
  readonly maxSessionDuration?: Duration;
}

/** The OIDC provider and the deploy role. */
export class GitHubDeployAccess extends Construct {
  /** The provider the role trusts: created here, or the account's existing one. */
  public readonly provider: IOidcProvider;
  public readonly role: Role;
  /** Assumed by a pull request's `cdk diff`: may assume the lookup roles only. */
  public readonly diffRole: Role;

  constructor(scope: Construct, id: string, props: GitHubDeployAccessProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { owner, name } = props.repository;
    const qualifier = props.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;

    // The native resource (AWS::IAM::OIDCProvider): no custom-resource function to run or audit.
    // No thumbprint: IAM trusts GitHub's certificate through its own root CAs.
    this.provider = props.existingProviderArn
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHubOidcProvider', props.existingProviderArn)
      : new OidcProviderNative(this, 'GitHubOidcProvider', {
          url: `https://${githubTokenIssuer}`,
          clientIds: [githubTokenAudience],
        });

    const regions = props.regions ?? [stack.region];
    const bootstrapRoleArns = (kinds: readonly string[]) =>
      regions.flatMap((region) =>
        kinds.map(
          (kind) =>
            `arn:${stack.partition}:iam::${stack.account}:role/cdk-${qualifier}-${kind}-role-${stack.account}-${region}`,
        ),
      );
    // Exact matches: this repository, this environment (so its protection rules apply), this
    // audience, the ref and the workflow file (github-workflow-trust.ts).
    const trust = (workflowFile: string, ref: { equals: string } | { like: string }) =>
      githubWorkflowPrincipal({
        providerArn: this.provider.oidcProviderArn,
        repository: props.repository,
        environment: props.environment,
        workflowFile,
        ref,
      });
    // An existing provider must list the audience sts.amazonaws.com (docs/deploy.md): IAM checks it.
    this.role = new Role(this, 'DeployRole', {
      description: `Assumed by ${owner}/${name}'s GitHub workflows on main in environment ${props.environment}, to run cdk deploy through CDK's bootstrap roles.`,
      assumedBy: trust(roleWorkflows.deploy, { equals: deployBranchRef }),
      maxSessionDuration: props.maxSessionDuration ?? Duration.hours(1),
      inlinePolicies: {
        AssumeCdkBootstrapRoles: new PolicyDocument({
          statements: [
            new PolicyStatement({ actions: ['sts:AssumeRole'], resources: bootstrapRoleArns(bootstrapRoleKinds) }),
          ],
        }),
      },
    });
    this.diffRole = new Role(this, 'DiffRole', {
      description: `Assumed by ${owner}/${name}'s pull requests in environment ${props.environment}, to run cdk diff through CDK's lookup role (read-only).`,
      assumedBy: trust(roleWorkflows.diff, { like: pullRequestRefPattern }),
      maxSessionDuration: Duration.hours(1),
      inlinePolicies: {
        AssumeCdkLookupRoles: new PolicyDocument({
          statements: [
            new PolicyStatement({ actions: ['sts:AssumeRole'], resources: bootstrapRoleArns(diffRoleKinds) }),
          ],
        }),
      },
    });
  }
}

export interface DeployAccessStackProps extends StackProps, GitHubDeployAccessProps {}

/** The stack an administrator deploys once per account; its output goes into the GitHub environment. */
export class DeployAccessStack extends Stack {
  public readonly access: GitHubDeployAccess;

  constructor(scope: Construct, id: string, props: DeployAccessStackProps) {
    super(scope, id, props);
    this.access = new GitHubDeployAccess(this, 'GitHubDeployAccess', props);
    new CfnOutput(this, 'DeployRoleArn', {
      description: `The role ${props.repository.owner}/${props.repository.name}'s workflows assume in GitHub environment ${props.environment}.`,
      value: this.access.role.roleArn,
    });
    new CfnOutput(this, 'DiffRoleArn', {
      description: `The role ${props.repository.owner}/${props.repository.name}'s pull requests assume in GitHub environment ${props.environment} for cdk diff (read-only).`,
      value: this.access.diffRole.roleArn,
    });
  }
}
