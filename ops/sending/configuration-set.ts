/**
 * The product's SES configuration set, found in its stack: the one resource of type
 * `AWS::SES::ConfigurationSet` (infra/constructs/mail.ts), whose physical id is its name. Read
 * with ListStackResources, which pages through every resource (DescribeStackResources stops at
 * 100, fewer than this stack has); no stack output is needed.
 */

import { CloudFormationClient, paginateListStackResources } from '@aws-sdk/client-cloudformation';

export const configurationSetResourceType = 'AWS::SES::ConfigurationSet';

/** A stack that cannot be read, or has not exactly one configuration set: the message says which. */
export class StackConfigurationSetError extends Error {}

export async function configurationSetOfStack(client: CloudFormationClient, stackName: string): Promise<string> {
  const names: string[] = [];
  try {
    for await (const page of paginateListStackResources({ client }, { StackName: stackName })) {
      for (const resource of page.StackResourceSummaries ?? []) {
        if (resource.ResourceType === configurationSetResourceType && resource.PhysicalResourceId) {
          names.push(resource.PhysicalResourceId);
        }
      }
    }
  } catch (error) {
    throw new StackConfigurationSetError(
      `Could not read the stack ${stackName}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (names.length !== 1) {
    throw new StackConfigurationSetError(
      `The stack ${stackName} has ${names.length === 0 ? 'no' : names.length} SES configuration set${
        names.length === 0 ? '' : 's'
      }: is it this product's stack?`,
    );
  }
  return names[0];
}
