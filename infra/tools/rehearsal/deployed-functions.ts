/**
 * The catalogue's functions as the cloud assembly deploys them: each one's bundle folder (the
 * `asset.<hash>` folder its `Code` names), handler, timeout, role and environment, every
 * reference resolved to the name CloudFormation would give it (deployed-stacks.ts). The rehearsal
 * runs each function from this, never from its TypeScript.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { functionList } from '../../../core/api/catalogue/functions';
import type { DeployedStack } from './deployed-stacks';

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
