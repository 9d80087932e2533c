/**
 * The trust of a role that a GitHub Actions job assumes by OIDC, one shape for every such role (the
 * deploy and diff roles, the leads reader and operator roles): this repository, this GitHub
 * environment (so its protection rules apply), this ref, and this workflow file.
 *
 * `sub` (`repo:OWNER/NAME:environment:NAME` in an environment) carries neither branch nor workflow,
 * so the trust also checks GitHub's `repository`, `environment`, `ref` and `job_workflow_ref`
 * claims, which AWS STS reads as condition keys of `token.actions.githubusercontent.com` since
 * January 2026 (AWS What's New, "AWS STS supports validation of identity provider specific claims":
 * actor, actor_id, job_workflow_ref, repository, repository_id, workflow, ref, environment,
 * enterprise_id). StringEquals (or StringLike for a pull request's ref) throughout: never
 * `ForAllValues:`, which holds when a claim is absent.
 */
import { WebIdentityPrincipal } from 'aws-cdk-lib/aws-iam';

/** GitHub Actions' token issuer, and the audience `aws-actions/configure-aws-credentials` asks for. */
export const githubTokenIssuer = 'token.actions.githubusercontent.com';
export const githubTokenAudience = 'sts.amazonaws.com';

/** The branch whose runs deploy and whose leads jobs may reach the readers' data. */
export const mainBranchRef = 'refs/heads/main';
/** What GitHub names a pull request's ref: the only refs the diff role trusts. */
export const pullRequestRefPattern = 'refs/pull/*/merge';

/** The workflow files whose jobs assume a role (.github/workflows/). */
export const roleWorkflows = {
  deploy: 'deploy.yml',
  diff: 'ci.yml',
  leads: 'leads.yml',
  mailKey: 'mail-key.yml',
} as const;

export interface GitHubWorkflowTrustProps {
  /** The account's GitHub OIDC provider. */
  readonly providerArn: string;
  readonly repository: { readonly owner: string; readonly name: string };
  /** The GitHub environment the job runs in: the stage's name. */
  readonly environment: string;
  /** The workflow file under .github/workflows/ whose jobs may assume the role. */
  readonly workflowFile: string;
  /** The ref the run is on: `refs/heads/main`, exactly, or a pattern (pull requests). */
  readonly ref: { readonly equals: string } | { readonly like: string };
}

/** `job_workflow_ref`: `OWNER/NAME/.github/workflows/FILE@REF`. */
export function jobWorkflowRef(repository: string, workflowFile: string, ref: string): string {
  return `${repository}/.github/workflows/${workflowFile}@${ref}`;
}

/** The principal of a role only that workflow's jobs, on that ref, in that environment, may assume. */
export function githubWorkflowPrincipal(props: GitHubWorkflowTrustProps): WebIdentityPrincipal {
  const repository = `${props.repository.owner}/${props.repository.name}`;
  const exact = {
    [`${githubTokenIssuer}:sub`]: `repo:${repository}:environment:${props.environment}`,
    [`${githubTokenIssuer}:aud`]: githubTokenAudience,
    [`${githubTokenIssuer}:repository`]: repository,
    [`${githubTokenIssuer}:environment`]: props.environment,
  };
  const ref = props.ref;
  return new WebIdentityPrincipal(
    props.providerArn,
    'equals' in ref
      ? {
          StringEquals: {
            ...exact,
            [`${githubTokenIssuer}:ref`]: ref.equals,
            [`${githubTokenIssuer}:job_workflow_ref`]: jobWorkflowRef(repository, props.workflowFile, ref.equals),
          },
        }
      : {
          StringEquals: exact,
          StringLike: {
            [`${githubTokenIssuer}:ref`]: ref.like,
            [`${githubTokenIssuer}:job_workflow_ref`]: jobWorkflowRef(repository, props.workflowFile, ref.like),
          },
        },
  );
}
