/**
 * The catalogue's functions as the cloud assembly deploys them: each one's bundle folder (the
 * `asset.<hash>` folder its `Code` names), handler, timeout, role and environment, every
 * reference resolved to the name CloudFormation would give it (deployed-stacks.ts). The rehearsal
 * runs each function from this, never from its TypeScript.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { functionList } from '../../../core/api/catalogue/functions';
import { lookupRole } from './bootstrap-lookup-role';
import { stackArn, type DeployedStack } from './deployed-stacks';
import type { Caller } from './function-calls';

export interface DeployedFunction {
  /** The catalogue's name (`saveRequest`). */
  readonly name: string;
  readonly stack: DeployedStack;
  readonly logicalId: string;
  /** The deployed function's ARN. */
  readonly arn: string;
  /** The role it runs as. */
  readonly roleArn: string;
  /** The folder holding its bundle (`index.mjs` and its chunks). */
  readonly bundleDirectory: string;
  /** `index.handler`: the file (without extension) and the export. */
  readonly handler: string;
  readonly timeoutSeconds: number;
  /** The template's variables, references resolved. */
  readonly environment: Readonly<Record<string, string>>;
}

interface FunctionProperties {
  readonly Code?: { readonly S3Key?: string };
  readonly Handler?: string;
  readonly Timeout?: number;
  readonly Role?: string;
  readonly Environment?: { readonly Variables?: Record<string, unknown> };
}

/**
 * Every catalogue function of the stacks, by the catalogue entry whose id its logical id carries
 * (`…SaveRequestFunction…`). Throws when a function's bundle is not in the assembly: a synth
 * without bundling cannot be rehearsed this way.
 */
export function deployedFunctions(stacks: readonly DeployedStack[]): DeployedFunction[] {
  const found: DeployedFunction[] = [];
  for (const stack of stacks) {
    for (const resource of stack.resources.values()) {
      if (resource.type !== 'AWS::Lambda::Function') continue;
      const entry = functionList.find((fn) => resource.logicalId.includes(`${fn.id}Function`));
      if (!entry) continue;
      const properties = resource.properties as FunctionProperties;
      const assetHash = (properties.Code?.S3Key ?? '').replace(/\.zip$/, '');
      const bundleDirectory = path.join(stack.assemblyDirectory, `asset.${assetHash}`);
      if (!assetHash || !existsSync(bundleDirectory)) {
        throw new Error(
          `${stack.name}/${resource.logicalId}: no bundle at ${bundleDirectory} (synthesize with bundling to rehearse the functions)`,
        );
      }
      found.push({
        name: entry.name,
        stack,
        logicalId: resource.logicalId,
        arn: resource.arn!,
        roleArn: properties.Role ?? '',
        bundleDirectory,
        handler: properties.Handler ?? 'index.handler',
        timeoutSeconds: properties.Timeout ?? 3,
        environment: Object.fromEntries(
          Object.entries(properties.Environment?.Variables ?? {}).map(([name, value]) => [name, String(value)]),
        ),
      });
    }
  }
  return found;
}

/** A deployed function as the rehearsal runs it: its own access key id, which names its role. */
export interface RehearsedFunction extends DeployedFunction {
  readonly region: string;
  readonly account: string;
  readonly accessKeyId: string;
}

/** Every catalogue function of the stacks, each signing as its role (the role's name is its access key id). */
export function rehearsedFunctions(stacks: readonly DeployedStack[]): RehearsedFunction[] {
  return deployedFunctions(stacks).map((fn) => ({
    ...fn,
    region: fn.stack.region,
    account: fn.stack.account,
    accessKeyId: fn.roleArn.split('/').pop()!,
  }));
}

/** A role the docs tell the author or operator to use, as the rehearsal signs for it. */
export interface RehearsedRole {
  readonly name: string;
  readonly roleArn: string;
  readonly account: string;
  readonly accessKeyId: string;
}

/**
 * The stack's leads reader and leads operator roles (with githubRepository: infra/constructs/leads-access.ts),
 * which the leads workflows assume for export and erase, and for unsent and resend.
 */
export function leadsRoles(stacks: readonly DeployedStack[]): {
  readonly leadsReader?: RehearsedRole;
  readonly leadsOperator?: RehearsedRole;
} {
  const role = (name: string, logicalIdPrefix: string): RehearsedRole | undefined => {
    for (const stack of stacks) {
      for (const resource of stack.resources.values()) {
        if (resource.type === 'AWS::IAM::Role' && resource.logicalId.startsWith(logicalIdPrefix)) {
          return { name, roleArn: resource.arn!, account: stack.account, accessKeyId: resource.ref };
        }
      }
    }
    return undefined;
  };
  return {
    leadsReader: role('leads reader', 'LeadsAccessReaderRole'),
    leadsOperator: role('leads operator', 'LeadsAccessOperatorRole'),
  };
}

/**
 * What CloudFormation and Lambda would tell an ops command about the deployed stacks: each stack's
 * ARN, outputs and resources (DescribeStacks, ListStackResources), and each function's role and
 * environment (GetFunctionConfiguration), as local/rehearsal/control-plane.ts answers them.
 */
export function deploymentDescription(stacks: readonly DeployedStack[]) {
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  return {
    stacks: stacks.map((stack) => ({
      name: stack.name,
      id: stackArn(stack),
      outputs: Object.fromEntries([...stack.outputs].map(([key, value]) => [key, text(value)])),
      resources: [...stack.resources.values()].map((resource) => ({
        logicalId: resource.logicalId,
        physicalId: resource.ref,
        type: resource.type,
      })),
    })),
    functions: stacks.flatMap((stack) =>
      [...stack.resources.values()]
        .filter((resource) => resource.type === 'AWS::Lambda::Function')
        .map((resource) => {
          const properties = resource.properties as FunctionProperties;
          return {
            name: resource.ref,
            arn: resource.arn!,
            role: properties.Role ?? '',
            environment: Object.fromEntries(
              Object.entries(properties.Environment?.Variables ?? {}).map(([name, value]) => [name, String(value)]),
            ),
          };
        }),
    ),
  };
}

/**
 * Who and what the rehearsal runs for a stage: every function from its bundle, what the control
 * plane says of the stacks, and the ops commands' cast, each as the role the docs name: the
 * product stack (what `--stack` names: the one with the SES configuration set), the leads reader
 * and operator roles (with githubRepository), and CDK's bootstrap lookup role in the product
 * stack's account and region (the smoke test's, docs/deploy.md). `callers` is everyone who signs.
 */
export function rehearsalCast(stacks: readonly DeployedStack[]) {
  const functions = rehearsedFunctions(stacks);
  const { leadsReader, leadsOperator } = leadsRoles(stacks);
  const product =
    stacks.find((stack) =>
      [...stack.resources.values()].some((resource) => resource.type === 'AWS::SES::ConfigurationSet'),
    ) ?? stacks[0];
  const smoke = lookupRole(product.account, product.region);
  const callers: Caller[] = [
    ...functions,
    ...[leadsReader, leadsOperator].flatMap((role) => (role ? [role] : [])),
    smoke,
  ];
  return {
    functions,
    deployment: deploymentDescription(stacks),
    ops: {
      stackName: product.name,
      region: product.region,
      ...(leadsReader && { leadsReader }),
      ...(leadsOperator && { leadsOperator }),
      lookupRole: smoke,
    },
    callers,
  };
}
