import { createHash } from 'node:crypto';
import { Stack, Token } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Room kept for the region when it is only known at deploy time (an environment-agnostic stack):
 * the longest region names today have 14 characters (`ap-southeast-5`, `eusc-de-east-1`).
 */
const unresolvedRegionLength = 16;
/** Characters of the stack name's digest that replace what a too-long stack name loses. */
const digestLength = 8;

/**
 * A name for a resource that CloudFront keeps per account, not per region or stack (response
 * headers and origin request policies, origin access controls, functions):
 * `<stack name>-<region>-<purpose>`, so the same stack deployed to a second region, or a second
 * stack in the same account, never collides with the first (`409: … already exists`).
 *
 * The region is the stack's: a literal for an environment-specific stack, CloudFormation's
 * `AWS::Region` (a Fn::Join) for an environment-agnostic one. Within `maxLength`, a stack name
 * too long to fit is cut and followed by a digest of the whole name, so two long stack names
 * still give two names. Stack names and regions hold only letters, digits and hyphens, and
 * `purpose` must too, so the name suits every one of those resources (a function name allows
 * `[a-zA-Z0-9-_]` only).
 */
export function regionalName(scope: IConstruct, purpose: string, maxLength: number): string {
  if (!/^[A-Za-z0-9-]+$/.test(purpose)) throw new Error(`"${purpose}" may hold only letters, digits and hyphens.`);
  const stack = Stack.of(scope);
  const region = stack.region;
  const regionLength = Token.isUnresolved(region) ? unresolvedRegionLength : region.length;
  const room = maxLength - regionLength - purpose.length - 2; // two hyphens
  const stackName = stack.stackName;
  if (Token.isUnresolved(stackName))
    throw new Error('The stack needs a literal name to name its CloudFront resources.');
  if (room < digestLength + 1)
    throw new Error(`"${purpose}" leaves no room for the stack name in ${maxLength} characters.`);
  const stackPart =
    stackName.length <= room
      ? stackName
      : `${stackName.slice(0, room - digestLength - 1)}-${createHash('sha256').update(stackName).digest('hex').slice(0, digestLength)}`;
  return `${stackPart}-${region}-${purpose}`;
}

/** CloudFront's limits on the names (CreateResponseHeadersPolicy, CreateOriginAccessControl, CreateFunction). */
export const cloudFrontNameLimits = {
  responseHeadersPolicy: 128,
  originRequestPolicy: 128,
  originAccessControl: 64,
  function: 64,
} as const;
