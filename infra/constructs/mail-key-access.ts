import { Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { githubTokenIssuer, githubWorkflowPrincipal, mainBranchRef, roleWorkflows } from './github-workflow-trust';

export interface MailKeyAccessProps {
  /** This repository: only its mail-key workflow's runs may assume the role. */
  readonly repository: { readonly owner: string; readonly name: string };
  /** The GitHub environment the workflow runs in: the stage's name (its reviewers approve each run). */
  readonly environment: string;
  /** The account's GitHub OIDC provider. @default the one DeployAccess creates in the account */
  readonly oidcProviderArn?: string;
  /** The secret the mail provider's key goes in (LeadHandoff's). */
  readonly mailProviderSecretArn: string;
}

/**
 * The role the mail-key workflow (.github/workflows/mail-key.yml) assumes to store the mail tool's
 * API key, so the author sets or replaces it from GitHub's web pages (an environment secret and
 * Run workflow) with no terminal and no AWS console. It may write that one secret's value and read
 * the stack's outputs (to find the secret), and nothing else: it cannot read the key back.
 */
export class MailKeyAccess extends Construct {
  public readonly role: Role;

  constructor(scope: Construct, id: string, props: MailKeyAccessProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { owner, name } = props.repository;
    this.role = new Role(this, 'Role', {
      description: `Stores the mail tool's key: ${owner}/${name}'s mail-key workflow on main in environment ${props.environment}.`,
      assumedBy: githubWorkflowPrincipal({
        providerArn:
          props.oidcProviderArn ?? `arn:${stack.partition}:iam::${stack.account}:oidc-provider/${githubTokenIssuer}`,
        repository: props.repository,
        environment: props.environment,
        workflowFile: roleWorkflows.mailKey,
        ref: { equals: mainBranchRef },
      }),
    });
    this.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['cloudformation:DescribeStacks'], resources: [stack.stackId] }),
    );
    this.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['secretsmanager:PutSecretValue'], resources: [props.mailProviderSecretArn] }),
    );
  }
}
