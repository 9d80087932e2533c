/**
 * The mutation test of the grants: each Allow statement of each function's role, and each
 * statement of a resource's policy (a key's, a bucket's) that names the role, removed in turn,
 * and the role's allowed requests judged again (judge.ts) without it. A statement whose removal
 * refuses a call is needed; one whose removal refuses nothing is reported, with why: no call uses
 * it (it is in the unused grants), or another statement allows the same calls.
 *
 * It judges the recorded requests again rather than running the scenarios again: the calls a
 * function makes do not depend on its grants until one is refused, and the first refusal is what
 * the mutation looks for.
 */
import type { Caller, JudgedRequest } from './function-calls';
import { statementUses } from './function-calls';
import { judge } from './judge';
import { resourcePolicyOf, roleByArn, type Policy } from './policies';
import type { DeployedStack } from './deployed-stacks';
import { deadLetterReadersSid } from '../../constructs/leads-key';

export interface MutationReport {
  /** Statements removed, one at a time. */
  readonly mutations: number;
  /** Of those, the ones whose removal refused a recorded call. */
  readonly needed: number;
  /** The others, each with why it refused nothing. */
  readonly survivors: readonly string[];
}

const without = (policy: Policy, index: number): Policy => ({
  ...policy,
  Statement: policy.Statement.filter((_, position) => position !== index),
});

export async function removeEachStatement(
  stacks: readonly DeployedStack[],
  callers: readonly Caller[],
  judged: readonly JudgedRequest[],
): Promise<MutationReport> {
  let mutations = 0;
  let needed = 0;
  const survivors: string[] = [];
  for (const caller of callers) {
    const role = roleByArn(stacks, caller.roleArn);
    if (!role) continue;
    const allowed = judged.filter((request) => request.caller === caller && request.judgement.allowed);
    const refusesOne = async (
      requests: readonly JudgedRequest[],
      policies: (request: JudgedRequest) => Parameters<typeof judge>[1],
    ) => {
      for (const request of requests) {
        const judgement = await judge(
          {
            principal: caller.roleArn,
            action: request.action,
            resource: request.resource,
            resourceAccount: request.holder?.stack.account ?? caller.account,
            ...(request.context && { context: request.context }),
          },
          policies(request),
        );
        if (!judgement.allowed) return true;
      }
      return false;
    };
    for (const [policyIndex, { name, policy }] of role.identityPolicies.entries()) {
      for (const [index, statement] of policy.Statement.entries()) {
        if (statement.Effect !== 'Allow') continue;
        mutations += 1;
        const covered: JudgedRequest[] = [];
        for (const request of allowed)
          if (await statementUses(statement, caller.roleArn, request)) covered.push(request);
        const identity = role.identityPolicies.map((entry, position) =>
          position === policyIndex ? { ...entry, policy: without(policy, index) } : entry,
        );
        const refused = await refusesOne(covered, (request) => ({
          identity,
          ...(request.holder && { resource: resourcePolicyOf(stacks, request.holder) }),
        }));
        if (refused) needed += 1;
        else
          survivors.push(
            `${caller.name}: ${name} statement ${index}: ${covered.length === 0 ? 'no call uses it (see the unused grants)' : 'another statement allows the same calls'}`,
          );
      }
    }
    const holders = [...new Set(allowed.flatMap((request) => (request.holder ? [request.holder] : [])))];
    for (const holder of holders) {
      const policy = resourcePolicyOf(stacks, holder);
      if (!policy) continue;
      for (const [index, statement] of policy.Statement.entries()) {
        if (statement.Effect !== 'Allow' || !JSON.stringify(statement.Principal ?? '').includes(caller.roleArn))
          continue;
        mutations += 1;
        const onHolder = allowed.filter((request) => request.holder === holder);
        const refused = await refusesOne(onHolder, () => ({
          identity: role.identityPolicies,
          resource: without(policy, index),
        }));
        if (refused) needed += 1;
        else if (statement.Sid === deadLetterReadersSid)
          survivors.push(
            `${caller.name}: ${holder.logicalId}'s policy statement ${index} (${statement.Sid}): no call uses it: leads dead-letters reads the failed events, and no rehearsed scenario leaves one`,
          );
        else survivors.push(`${caller.name}: ${holder.logicalId}'s policy statement ${index}: no call needs it`);
      }
    }
  }
  return { mutations, needed, survivors };
}
