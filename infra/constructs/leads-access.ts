import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { AccountRootPrincipal, PolicyStatement, Role, type IRole } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { githubTokenIssuer, githubWorkflowPrincipal, mainBranchRef, roleWorkflows } from './github-workflow-trust';

/**
 * What the leads reader role may do, and why (docs/author.md, 'The leads workflows'), besides
 * reading the tables through the leads' key (its key policy names the role: LeadsKey):
 * - `cloudformation:DescribeStacks` on this stack: `--stack` finds the tables in its outputs;
 * - `dynamodb:Scan` on the requests table: export reads every request, erase finds every spelling;
 * - `dynamodb:DeleteItem` on the requests table: erase removes them;
 * - `dynamodb:GetItem` and `DeleteItem` on the limit counters' table: erase removes the address's counters
 *   and suppression entry; `Scan` and `UpdateItem` there: rekey finds the suppression entries written
 *   under plain SHA-256 ids and writes each under its keyed id (ops/leads/rekey-suppressions.ts);
 * - `dynamodb:GetItem` and `DeleteItem` on the idempotency keys' table: erase looks up, then removes,
 *   the records of the address's submissions (found through each request's key);
 * - `secretsmanager:GetSecretValue` on the mail provider's key, when there is one: erase removes the
 *   address from the author's mailing list too;
 * - `secretsmanager:GetSecretValue` on the deployment's secret (the origin secret): erase computes the
 *   keyed ids of the address's send counters and suppression entry (core/data/address-hash.ts). It is
 *   encrypted with Secrets Manager's AWS managed key, whose policy lets any principal of the account
 *   allowed GetSecretValue decrypt through Secrets Manager, so no kms grant is needed (under a customer
 *   managed key, its policy would have to name this role). Whoever holds the role could also call the
 *   API past CloudFront's web ACL with it: little, for a role that already reads every lead;
 * - `ses:DeleteSuppressedDestination`: erase takes the address off the account's suppression list;
 * - `ses:SendEmail` from the sender's identity through the configuration set, to `authorEmail`
 *   only (`ses:Recipients`): export mails the CSV to the author, and to no one else;
 * - `lambda:GetFunctionConfiguration` on the weekly digest function: export finds the author's
 *   address in its environment (`AUTHOR_EMAIL`), since no stack output prints it into deploy logs.
 */
export const leadsReaderActions = [
  'cloudformation:DescribeStacks',
  'dynamodb:DeleteItem',
  'dynamodb:GetItem',
  'dynamodb:Scan',
  'dynamodb:UpdateItem',
  'lambda:GetFunctionConfiguration',
  'secretsmanager:GetSecretValue',
  'ses:DeleteSuppressedDestination',
  'ses:SendEmail',
] as const;

/**
 * What the leads operator role may do: `unsent` (list) and `resend` (send again through the send
 * function's own code, as the send function's role), and `sending pause|resume|status`
 * (docs/operate.md, 'Pausing and resuming sending'):
 * - `cloudformation:DescribeStacks` on this stack: the tables and the send function from its outputs;
 * - `cloudformation:ListStackResources` on this stack: `sending` finds the configuration set among its resources;
 * - `ses:GetConfigurationSet` and `ses:PutConfigurationSetSendingOptions` on the configuration set:
 *   `sending` reads and switches its sending;
 * - `ses:GetAccount`: `sending` shows whether SES paused the account (the action has no resource);
 * - `dynamodb:Scan` on the requests table (the leads' key names the role): the unsent requests;
 * - `lambda:GetFunctionConfiguration` on the send function: its environment, so resend runs with the
 *   very settings the function has (tables, bucket, sender, limits) and asks for none.
 *
 * resend then assumes the send function's role, whose trust policy names this role's ARN: in one
 * account that alone lets it (IAM needs no `sts:AssumeRole` in this role's own policy, and the
 * rehearsal's mutation test found such a statement redundant), so resend sends with exactly the
 * function's rights, no more.
 */
export const leadsOperatorActions = [
  'cloudformation:DescribeStacks',
  'cloudformation:ListStackResources',
  'dynamodb:Scan',
  'lambda:GetFunctionConfiguration',
  'ses:GetAccount',
  'ses:GetConfigurationSet',
  'ses:PutConfigurationSetSendingOptions',
] as const;

/** The author's address and the digest function that carries it in its environment. */
export interface LeadsAuthor {
  readonly email: string;
  readonly digestFunctionArn: string;
}

export interface LeadsAccessProps {
  /** The repository whose workflows may assume the roles, `owner/name`. */
  readonly repository: { readonly owner: string; readonly name: string };
  /** The GitHub environment a workflow job must run in: the stage's, as the deploy role's. */
  readonly environment: string;
  /**
   * The account's GitHub OIDC provider.
   *
   * @default the provider the DeployAccess stack creates (`arn:…:oidc-provider/token.actions.githubusercontent.com`)
   */
  readonly oidcProviderArn?: string;
  readonly requestsTable: ITable;
  readonly limitCountersTable: ITable;
  /** The idempotency keys' table: erase removes the records of the address's submissions. */
  readonly idempotencyTable: ITable;
  /** The deployment's secret (the origin secret), read by erase and rekey: it keys the address hashes. */
  readonly deploymentSecret: ISecret;
  /** The mail provider's key (its secret's ARN), read by erase. @default - no mail provider: no secret to read */
  readonly mailProviderSecretArn?: string;
  /** The SES identity and configuration set export mails the CSV through. */
  readonly senderIdentityArn: string;
  readonly configurationSetArn: string;
  /**
   * The author (`authorEmail`): where export mails the CSV, and the weekly digest function whose
   * environment holds that address (export reads it there).
   *
   * @default - export cannot mail (the role gets no ses:SendEmail)
   */
  readonly author?: LeadsAuthor;
  /** The send function's name and role: resend runs as that role. */
  readonly sendFunctionArn: string;
  readonly sendFunctionRole: IRole;
  /** @default 1 hour: an export or an erase takes seconds */
  readonly maxSessionDuration?: Duration;
}

/**
 * The roles the leads workflows assume (.github/workflows/leads.yml), so no one needs AWS skills or
 * credentials for the readers' data: the leads reader role (export, erase) and the leads operator
 * role (unsent, resend). Each trusts only the Leads workflow of this repository, run from `main` in
 * the stage's GitHub environment (github-workflow-trust.ts: `repository`, `environment`, `ref` and
 * `job_workflow_ref`, as the deploy role), so that environment's protection rules (required
 * reviewers) guard them, and neither another branch's copy of the workflow nor a pull request's
 * job reaches them.
 *
 * And the break-glass role, for an operator at a terminal when GitHub is down or too slow (3 a.m.):
 * the operator role's rights (unsent, resend, sending pause|resume|status), assumable by the
 * account's own principals whose policy allows sts:AssumeRole on it (its administrators) and only
 * with MFA (`aws:MultiFactorAuthPresent`), for one hour at most. Not the reader's rights: export
 * and erase read or delete every lead, and stay behind the environment's reviewers.
 *
 * The leads' key lets the three read the tables (LeadsKey.allowTableUse, wired by the stack).
 */
export class LeadsAccess extends Construct {
  public readonly readerRole: Role;
  public readonly operatorRole: Role;
  /** The operator's rights from a terminal: the account's administrators, with MFA. */
  public readonly breakGlassRole: Role;

  constructor(scope: Construct, id: string, props: LeadsAccessProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const providerArn =
      props.oidcProviderArn ?? `arn:${stack.partition}:iam::${stack.account}:oidc-provider/${githubTokenIssuer}`;
    const { owner, name } = props.repository;
    const trust = () =>
      githubWorkflowPrincipal({
        providerArn,
        repository: props.repository,
        environment: props.environment,
        workflowFile: roleWorkflows.leads,
        ref: { equals: mainBranchRef },
      });
    const maxSessionDuration = props.maxSessionDuration ?? Duration.hours(1);
    const describeStack = new PolicyStatement({
      actions: ['cloudformation:DescribeStacks'],
      resources: [stack.stackId],
    });

    this.readerRole = new Role(this, 'ReaderRole', {
      description: `The leads reader: export and erase, from ${owner}/${name}'s leads workflow on main in environment ${props.environment}.`,
      assumedBy: trust(),
      maxSessionDuration,
    });
    this.readerRole.addToPrincipalPolicy(describeStack);
    this.readerRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:Scan', 'dynamodb:DeleteItem'],
        resources: [props.requestsTable.tableArn],
      }),
    );
    this.readerRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:DeleteItem', 'dynamodb:Scan', 'dynamodb:UpdateItem'],
        resources: [props.limitCountersTable.tableArn],
      }),
    );
    this.readerRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:DeleteItem'],
        resources: [props.idempotencyTable.tableArn],
      }),
    );
    this.readerRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [props.deploymentSecret.secretArn],
      }),
    );
    if (props.mailProviderSecretArn) {
      this.readerRole.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [props.mailProviderSecretArn] }),
      );
    }
    // The suppression list is the account's: the action has no resource to name.
    this.readerRole.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['ses:DeleteSuppressedDestination'], resources: ['*'] }),
    );
    Validations.of(this.readerRole.node.findChild('DefaultPolicy')).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason:
        "ses:DeleteSuppressedDestination: the suppression list is the account's, and SES gives the action no resource-level permission; erase needs it to take a reader's address off the list.",
    });
    if (props.author) {
      this.readerRole.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: [props.senderIdentityArn, props.configurationSetArn],
          conditions: { 'ForAllValues:StringEquals': { 'ses:Recipients': [props.author.email] } },
        }),
      );
      this.readerRole.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['lambda:GetFunctionConfiguration'],
          resources: [props.author.digestFunctionArn],
        }),
      );
    }

    this.operatorRole = new Role(this, 'OperatorRole', {
      description: `The leads operator: unsent and resend, from ${owner}/${name}'s leads workflow on main in environment ${props.environment}.`,
      assumedBy: trust(),
      maxSessionDuration,
    });
    this.breakGlassRole = new Role(this, 'BreakGlassRole', {
      description: `Break glass: the leads operator's rights (unsent, resend, sending) from a terminal, for the account's administrators with MFA, in environment ${props.environment}.`,
      assumedBy: new AccountRootPrincipal().withConditions({ Bool: { 'aws:MultiFactorAuthPresent': 'true' } }),
      maxSessionDuration,
    });
    for (const role of [this.operatorRole, this.breakGlassRole]) {
      role.addToPrincipalPolicy(describeStack);
      role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['dynamodb:Scan'], resources: [props.requestsTable.tableArn] }),
      );
      role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['lambda:GetFunctionConfiguration'], resources: [props.sendFunctionArn] }),
      );
      // sending pause|resume|status --stack: the configuration set from the stack's resources, its switch.
      role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['cloudformation:ListStackResources'], resources: [stack.stackId] }),
      );
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['ses:GetConfigurationSet', 'ses:PutConfigurationSetSendingOptions'],
          resources: [props.configurationSetArn],
        }),
      );
      // The account's sending state (SES pauses an account under review): the action has no resource.
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['ses:GetAccount'], resources: ['*'] }));
      Validations.of(role.node.findChild('DefaultPolicy')).acknowledge({
        id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
        reason:
          "ses:GetAccount: SES gives the action no resource-level permission; `sending` reads whether SES paused the account, which stops the product's mail as surely as the configuration set's switch.",
      });
    }
    // The send function's role trusts the operator roles too: resend sends with the function's rights.
    const sendRole = props.sendFunctionRole as Role;
    sendRole.assumeRolePolicy?.addStatements(
      new PolicyStatement({ actions: ['sts:AssumeRole'], principals: [this.operatorRole, this.breakGlassRole] }),
    );
  }
}
