import {
  asList,
  propertiesOf,
  referencedIds,
  renderCondition,
  renderPrincipal,
  renderValue,
  resourcesOfType,
  type Json,
  type PolicyDocument,
  type StackView,
} from './cloudformation-template';
import { table } from './markdown-table';

export interface RoleProperties {
  Policies: ReadonlyArray<{ PolicyName: string; PolicyDocument: PolicyDocument }>;
  AssumeRolePolicyDocument: PolicyDocument;
  ManagedPolicyArns: readonly Json[];
}

export interface Grant {
  readonly effect: string;
  readonly action: string;
  readonly resources: string[];
  readonly condition: string;
  readonly policy: string;
}

/** Every (action, resource, condition) a role's policies allow or deny. */
export function roleGrants(view: StackView, roleId: string, role: Partial<RoleProperties>): Grant[] {
  const documents: Array<[string, PolicyDocument]> = [
    ...(role.Policies ?? []).map((inline): [string, PolicyDocument] => [
      `inline ${inline.PolicyName}`,
      inline.PolicyDocument,
    ]),
    ...Object.entries(view.resources)
      .filter(
        ([, candidate]) =>
          (candidate.Type === 'AWS::IAM::Policy' || candidate.Type === 'AWS::IAM::ManagedPolicy') &&
          asList(candidate.Properties?.Roles).some((target) => referencedIds(target).includes(roleId)),
      )
      .map(([policyId, policy]): [string, PolicyDocument] => [
        policyId,
        propertiesOf<{ PolicyDocument: PolicyDocument }>(policy).PolicyDocument ?? {},
      ]),
  ];
  return documents.flatMap(([policy, document]) =>
    asList(document.Statement).flatMap((statement) =>
      asList(statement.Action).map((action) => ({
        effect: statement.Effect,
        action,
        resources: asList(statement.Resource).map(renderValue),
        condition: renderCondition(statement.Condition),
        policy,
      })),
    ),
  );
}

/** The audit report's section on IAM: each role, who assumes it, and every grant. */
export function iamSection(views: readonly StackView[]): string {
  const parts = ['## IAM: what each role may do', ''];
  for (const view of views) {
    for (const [roleId, resource] of resourcesOfType(view, 'AWS::IAM::Role')) {
      const role = propertiesOf<RoleProperties>(resource);
      const assumedBy = asList(role.AssumeRolePolicyDocument?.Statement)
        .map((statement) => renderPrincipal(statement.Principal))
        .join('; ');
      const managed = asList(role.ManagedPolicyArns).map(renderValue);
      parts.push(
        `### \`${roleId}\``,
        '',
        `Construct path \`${view.paths.get(roleId) ?? ''}\`; assumed by ${assumedBy}; AWS managed policies: ${managed.length > 0 ? managed.join(', ') : 'none'}.`,
        '',
        table(
          ['effect', 'action', 'resources', 'condition', 'policy'],
          roleGrants(view, roleId, role).map((grant) => [
            grant.effect,
            `\`${grant.action}\``,
            grant.resources.join(', '),
            grant.condition,
            `\`${grant.policy}\``,
          ]),
        ),
      );
    }
  }
  return parts.join('\n');
}
