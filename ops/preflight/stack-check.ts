/**
 * Whether the stack exists yet (CloudFormation DescribeStacks). A stack left in ROLLBACK_COMPLETE
 * by a failed first create, or in REVIEW_IN_PROGRESS by a change set never run, holds no
 * resources: for the checks that depend on it, it does not exist yet.
 */

import { DescribeStacksCommand, type CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { describeError, isMissingStack } from './aws-errors';
import type { CheckResult } from './check-result';

export type StackState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'not-created'; readonly status: string }
  | { readonly kind: 'exists'; readonly status: string }
  | { readonly kind: 'unknown'; readonly reason: string };

const notCreatedStatuses = new Set(['ROLLBACK_COMPLETE', 'REVIEW_IN_PROGRESS']);

export async function readStackState(cloudFormation: CloudFormationClient, stackName: string): Promise<StackState> {
  try {
    const { Stacks = [] } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    const status = Stacks[0]?.StackStatus;
    if (status === undefined) return { kind: 'absent' };
    return notCreatedStatuses.has(status) ? { kind: 'not-created', status } : { kind: 'exists', status };
  } catch (error) {
    return isMissingStack(error) ? { kind: 'absent' } : { kind: 'unknown', reason: describeError(error) };
  }
}

/** The stack not created yet: the first deploy (or a retry of one) creates its resources. */
export function isFirstDeploy(state: StackState): boolean {
  return state.kind === 'absent' || state.kind === 'not-created';
}

export function checkStack(stackName: string, state: StackState): CheckResult {
  const name = `stack ${stackName}`;
  switch (state.kind) {
    case 'absent':
      return { name, status: 'PASS', detail: 'does not exist yet: the deploy creates it' };
    case 'not-created':
      return state.status === 'ROLLBACK_COMPLETE'
        ? {
            name,
            status: 'PASS',
            detail: 'ROLLBACK_COMPLETE, left by a failed first deploy: cdk deploy deletes it and creates it again',
          }
        : { name, status: 'PASS', detail: `${state.status}: it holds no resources yet` };
    case 'unknown':
      return { name, status: 'WARN', detail: `could not read it: ${state.reason}` };
    case 'exists':
      if (state.status.endsWith('_IN_PROGRESS')) {
        return {
          name,
          status: 'FAIL',
          detail: `${state.status}: another operation is running on it`,
          fix: 'wait for it to finish (CloudFormation console, Events), then run the preflight again.',
        };
      }
      if (state.status.endsWith('_FAILED')) {
        return {
          name,
          status: 'FAIL',
          detail: `${state.status}: CloudFormation cannot update it until that is resolved`,
          fix: `see its Events; for UPDATE_ROLLBACK_FAILED: aws cloudformation continue-update-rollback --stack-name ${stackName}`,
        };
      }
      return { name, status: 'PASS', detail: `exists (${state.status}): the deploy updates it` };
  }
}
