/**
 * Who may do what, read from the deployed stacks: each role's identity policies (its inline
 * policies and every AWS::IAM::Policy attached to it) and trust policy, and each resource's own
 * policy (a KMS key's, a topic's, a bucket's, a queue's, a function's permissions).
 */
import type { DeployedResource, DeployedStack } from './deployed-stacks';
import { resourcesOfType } from './deployed-stacks';

export interface Statement {
  readonly Sid?: string;
  readonly Effect: 'Allow' | 'Deny';
  readonly Principal?: unknown;
  readonly Action?: string | readonly string[];
  readonly Resource?: string | readonly string[];
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export interface Policy {
  readonly Version: '2012-10-17';
  readonly Statement: readonly Statement[];
}

/** Where a statement lives: the resource that holds it and its index there, to name and to remove it. */
export interface StatementOrigin {
  readonly holder: DeployedResource;
  readonly policyName: string;
  readonly statement: Statement;
  readonly index: number;
}

export interface RoleView {
  readonly resource: DeployedResource;
  readonly arn: string;
  readonly identityPolicies: readonly {
    readonly name: string;
    readonly policy: Policy;
    readonly origin: DeployedResource;
  }[];
  readonly trustPolicy: Policy;
  /** AWS managed policies attached by ARN: their statements are not in the template. */
  readonly managedPolicyArns: readonly string[];
}

function asPolicy(document: unknown): Policy {
  const statements = (document as { Statement?: Statement[] } | undefined)?.Statement ?? [];
  return { Version: '2012-10-17', Statement: statements };
}

/** Every role of the stacks with the policies that apply to it. */
export function rolesOf(stacks: readonly DeployedStack[]): RoleView[] {
  const policies = resourcesOfType(stacks, 'AWS::IAM::Policy');
  return resourcesOfType(stacks, 'AWS::IAM::Role').map((resource) => {
    const properties = resource.properties as {
      AssumeRolePolicyDocument?: unknown;
      Policies?: { PolicyName: string; PolicyDocument: unknown }[];
      ManagedPolicyArns?: string[];
    };
    const inline = (properties.Policies ?? []).map((policy) => ({
      name: `${resource.logicalId}/${policy.PolicyName}`,
      policy: asPolicy(policy.PolicyDocument),
      origin: resource,
    }));
    const attached = policies
      .filter(
        (policy) =>
          policy.stack === resource.stack &&
          ((policy.properties as { Roles?: string[] }).Roles ?? []).includes(resource.ref),
      )
      .map((policy) => ({
        name: policy.logicalId,
        policy: asPolicy((policy.properties as { PolicyDocument?: unknown }).PolicyDocument),
        origin: policy,
      }));
    return {
      resource,
      arn: resource.arn!,
      identityPolicies: [...inline, ...attached],
      trustPolicy: asPolicy(properties.AssumeRolePolicyDocument),
      managedPolicyArns: properties.ManagedPolicyArns ?? [],
    };
  });
}

/** The role whose ARN is `arn`, or undefined. */
export function roleByArn(stacks: readonly DeployedStack[], arn: string): RoleView | undefined {
  return rolesOf(stacks).find((role) => role.arn === arn);
}

/**
 * The resource policy that applies to `resource`: a key's KeyPolicy, the topic's, bucket's or
 * queue's policy resources, a function's permissions (each AWS::Lambda::Permission is one statement
 * of its resource policy), a role's trust policy.
 */
export function resourcePolicyOf(stacks: readonly DeployedStack[], resource: DeployedResource): Policy | undefined {
  const holders = (type: string, listKey: string) =>
    resourcesOfType(stacks, type).filter((holder) => {
      const value = (holder.properties as Record<string, unknown>)[listKey];
      const list = Array.isArray(value) ? value : [value];
      return list.includes(resource.ref) || list.includes(resource.arn);
    });
  const merged = (documents: unknown[]): Policy | undefined =>
    documents.length === 0
      ? undefined
      : { Version: '2012-10-17', Statement: documents.flatMap((document) => asPolicy(document).Statement) };
  switch (resource.type) {
    case 'AWS::KMS::Key':
      return asPolicy((resource.properties as { KeyPolicy?: unknown }).KeyPolicy);
    case 'AWS::SNS::Topic':
      return merged(
        holders('AWS::SNS::TopicPolicy', 'Topics').map(
          (holder) => (holder.properties as { PolicyDocument: unknown }).PolicyDocument,
        ),
      );
    case 'AWS::SQS::Queue':
      return merged(
        holders('AWS::SQS::QueuePolicy', 'Queues').map(
          (holder) => (holder.properties as { PolicyDocument: unknown }).PolicyDocument,
        ),
      );
    case 'AWS::S3::Bucket':
      return merged(
        holders('AWS::S3::BucketPolicy', 'Bucket').map(
          (holder) => (holder.properties as { PolicyDocument: unknown }).PolicyDocument,
        ),
      );
    case 'AWS::Lambda::Function':
      return merged(
        holders('AWS::Lambda::Permission', 'FunctionName').map((holder) => ({
          Statement: [lambdaPermissionStatement(holder, resource.arn!)],
        })),
      );
    case 'AWS::IAM::Role':
      return asPolicy((resource.properties as { AssumeRolePolicyDocument?: unknown }).AssumeRolePolicyDocument);
    default:
      return undefined;
  }
}

/** A function permission as the statement Lambda adds to the function's resource policy. */
function lambdaPermissionStatement(permission: DeployedResource, functionArn: string): Statement {
  const { Action, Principal, SourceArn, SourceAccount } = permission.properties as Record<string, string>;
  const condition: Record<string, Record<string, unknown>> = {};
  if (SourceArn) condition.ArnLike = { 'aws:SourceArn': SourceArn };
  if (SourceAccount) condition.StringEquals = { 'aws:SourceAccount': SourceAccount };
  const principal = Principal.endsWith('.amazonaws.com') ? { Service: Principal } : { AWS: Principal };
  return {
    Sid: permission.logicalId,
    Effect: 'Allow',
    Principal: principal,
    Action,
    Resource: functionArn,
    ...(Object.keys(condition).length > 0 && { Condition: condition }),
  };
}
