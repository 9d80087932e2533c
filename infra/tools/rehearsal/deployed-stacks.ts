/**
 * The synthesized stacks of a cloud assembly as they would be once deployed: every intrinsic
 * (Ref, Fn::GetAtt, Fn::Join, Fn::Sub, Fn::GetStackOutput…) resolved to the name or ARN
 * CloudFormation would give it, in the stage's account and regions. Generated names follow
 * CloudFormation's pattern closely enough to be unique and to carry the stack's name (an IAM role
 * is `<stack>-<logical id>`), which is what the policies' conditions compare.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Json, PolicyDocument, TemplateResource } from '../cloudformation-template';
import { attributeOf, partition, physicalNames } from './physical-names';

export { partition };

/** The account a stack without one is rehearsed in (an environment-agnostic synth). */
export const standInAccount = '123456789012';

interface Template {
  readonly Resources?: Readonly<Record<string, TemplateResource>>;
  readonly Outputs?: Readonly<Record<string, { readonly Value: Json; readonly Export?: { readonly Name: Json } }>>;
  readonly Conditions?: Readonly<Record<string, Json>>;
}

export interface DeployedResource {
  readonly stack: DeployedStack;
  readonly logicalId: string;
  readonly type: string;
  /** The resource's properties, every intrinsic resolved. */
  readonly properties: Readonly<Record<string, unknown>>;
  /** What `Ref` returns. */
  readonly ref: string;
  /** Its ARN, when it has one. */
  readonly arn?: string;
}

export interface DeployedStack {
  readonly name: string;
  readonly account: string;
  readonly region: string;
  /** The cloud assembly's folder of its assets (functions' bundles). */
  readonly assemblyDirectory: string;
  readonly resources: ReadonlyMap<string, DeployedResource>;
  readonly outputs: ReadonlyMap<string, unknown>;
}

interface Manifest {
  readonly artifacts: Readonly<
    Record<
      string,
      {
        readonly type: string;
        readonly environment?: string;
        readonly properties?: { readonly templateFile?: string; readonly stackName?: string };
      }
    >
  >;
}

/** Every stack of a cloud assembly (`cdk.out`), resolved. `region` stands in for an environment-agnostic stack's. */
export function readDeployedStacks(assemblyDirectory: string, fallback: { readonly region: string }): DeployedStack[] {
  const manifest = JSON.parse(readFileSync(path.join(assemblyDirectory, 'manifest.json'), 'utf8')) as Manifest;
  const raw = Object.entries(manifest.artifacts)
    .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack' && artifact.properties?.templateFile)
    .map(([id, artifact]) => {
      const [, account, region] = /^aws:\/\/([^/]+)\/(.+)$/.exec(artifact.environment ?? '') ?? [];
      const template = JSON.parse(
        readFileSync(path.join(assemblyDirectory, artifact.properties!.templateFile!), 'utf8'),
      ) as Template;
      return {
        name: artifact.properties!.stackName ?? id,
        account: !account || account === 'unknown-account' ? standInAccount : account,
        region: !region || region === 'unknown-region' ? fallback.region : region,
        template,
      };
    });
  return resolveStacks(raw, assemblyDirectory);
}

interface RawStack {
  readonly name: string;
  readonly account: string;
  readonly region: string;
  readonly template: Template;
}

function resolveStacks(raw: readonly RawStack[], assemblyDirectory: string): DeployedStack[] {
  const stacks = new Map<string, { stack: DeployedStack; raw: RawStack }>();
  // Names first (they never depend on another stack), then properties, which may read any stack's outputs.
  for (const entry of raw) {
    const resources = new Map<string, DeployedResource>();
    const outputs = new Map<string, unknown>();
    const stack: DeployedStack = {
      name: entry.name,
      account: entry.account,
      region: entry.region,
      assemblyDirectory,
      resources,
      outputs,
    };
    stacks.set(`${entry.name}@${entry.region}`, { stack, raw: entry });
    for (const [logicalId, resource] of Object.entries(entry.template.Resources ?? {})) {
      const names = physicalNames(entry, logicalId, resource);
      resources.set(logicalId, {
        stack,
        logicalId,
        type: resource.Type,
        properties: {},
        ...names,
      });
    }
  }
  const byName = (name: string, region?: string) =>
    [...stacks.values()].find(({ stack }) => stack.name === name && (!region || stack.region === region));
  for (const { stack, raw: entry } of stacks.values()) {
    const resolver = new Resolver(stack, entry.template, byName);
    for (const [logicalId, resource] of Object.entries(entry.template.Resources ?? {})) {
      const deployed = stack.resources.get(logicalId)!;
      (deployed as { properties: unknown }).properties = resolver.resolve(resource.Properties ?? {});
    }
    for (const [name, output] of Object.entries(entry.template.Outputs ?? {})) {
      (stack.outputs as Map<string, unknown>).set(name, resolver.resolve(output.Value));
    }
  }
  return [...stacks.values()].map(({ stack }) => stack);
}

type StackLookup = (name: string, region?: string) => { stack: DeployedStack; raw: RawStack } | undefined;

class Resolver {
  constructor(
    private readonly stack: DeployedStack,
    private readonly template: Template,
    private readonly stackNamed: StackLookup,
  ) {}

  resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.resolve(item)).filter((item) => item !== noValue);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 1) {
      const [[key, argument]] = entries;
      const intrinsic = this.intrinsic(key, argument);
      if (intrinsic !== notIntrinsic) return intrinsic;
    }
    const result: Record<string, unknown> = {};
    for (const [key, item] of entries) {
      const resolved = this.resolve(item);
      if (resolved !== noValue) result[key] = resolved;
    }
    return result;
  }

  private pseudo(name: string): string | typeof noValue {
    switch (name) {
      case 'AWS::AccountId':
        return this.stack.account;
      case 'AWS::Region':
        return this.stack.region;
      case 'AWS::Partition':
        return partition;
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
      case 'AWS::StackName':
        return this.stack.name;
      case 'AWS::StackId':
        return stackArn(this.stack);
      case 'AWS::NoValue':
        return noValue;
      default:
        return this.resourceNamed(name).ref;
    }
  }

  private resourceNamed(logicalId: string): DeployedResource {
    const resource = this.stack.resources.get(logicalId);
    if (!resource) throw new Error(`${this.stack.name}: no resource ${logicalId}`);
    return resource;
  }

  private intrinsic(key: string, argument: unknown): unknown {
    switch (key) {
      case 'Ref':
        return this.pseudo(argument as string);
      case 'Fn::GetAtt': {
        const [logicalId, attribute] = Array.isArray(argument)
          ? (argument as string[])
          : (argument as string).split(/\.(.*)/);
        return attributeOf(this.resourceNamed(logicalId), attribute);
      }
      case 'Fn::Join': {
        const [separator, parts] = argument as [string, unknown[]];
        return (this.resolve(parts) as unknown[]).map(String).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = argument as [unknown, unknown];
        return (this.resolve(list) as unknown[])[Number(this.resolve(index))];
      }
      case 'Fn::Split': {
        const [separator, text] = argument as [string, unknown];
        return String(this.resolve(text)).split(separator);
      }
      case 'Fn::Sub': {
        const [text, variables] = Array.isArray(argument)
          ? (argument as [string, Record<string, unknown>])
          : [argument as string, {}];
        return text.replace(/\$\{([^}!]+)\}/g, (_, name: string) => {
          if (name in variables) return String(this.resolve(variables[name]));
          const [logicalId, attribute] = name.split(/\.(.*)/);
          if (attribute) return attributeOf(this.resourceNamed(logicalId), attribute);
          return String(this.pseudo(name));
        });
      }
      case 'Fn::If': {
        const [condition, whenTrue, whenFalse] = argument as [string, unknown, unknown];
        return this.resolve(this.condition(condition) ? whenTrue : whenFalse);
      }
      case 'Fn::GetStackOutput': {
        const { StackName, Region, OutputName } = this.resolve(argument) as Record<string, string>;
        return this.outputOf(StackName, OutputName, Region);
      }
      case 'Fn::ImportValue':
        return `imported:${String(this.resolve(argument))}`;
      case 'Fn::Base64':
        return Buffer.from(String(this.resolve(argument))).toString('base64');
      case 'Fn::GetAZs':
        return ['a', 'b', 'c'].map((zone) => `${this.stack.region}${zone}`);
      case 'Fn::Equals':
      case 'Fn::Not':
      case 'Fn::And':
      case 'Fn::Or':
      case 'Condition':
        return this.conditionValue({ [key]: argument });
      default:
        return notIntrinsic;
    }
  }

  private outputOf(stackName: string, outputName: string, region?: string): unknown {
    const other = this.stackNamed(stackName, region);
    if (!other) throw new Error(`${this.stack.name}: no stack ${stackName} for output ${outputName}`);
    const output = other.raw.template.Outputs?.[outputName];
    if (!output) throw new Error(`${stackName}: no output ${outputName}`);
    return new Resolver(other.stack, other.raw.template, this.stackNamed).resolve(output.Value);
  }

  private condition(name: string): boolean {
    return this.conditionValue(this.template.Conditions?.[name] ?? false);
  }

  private conditionValue(value: unknown): boolean {
    if (typeof value === 'boolean') return value;
    const [[key, argument]] = Object.entries(value as Record<string, unknown>);
    const list = argument as unknown[];
    switch (key) {
      case 'Fn::Equals':
        return String(this.resolve(list[0])) === String(this.resolve(list[1]));
      case 'Fn::Not':
        return !this.conditionValue(list[0]);
      case 'Fn::And':
        return list.every((item) => this.conditionValue(item));
      case 'Fn::Or':
        return list.some((item) => this.conditionValue(item));
      case 'Condition':
        return this.condition(argument as string);
      default:
        return Boolean(this.resolve(value));
    }
  }
}

const noValue = Symbol('AWS::NoValue');
const notIntrinsic = Symbol('not an intrinsic');

/** The stack's ARN, its `AWS::StackId` (the id part stands in for CloudFormation's generated one). */
export function stackArn(stack: Pick<DeployedStack, 'name' | 'account' | 'region'>): string {
  return `arn:${partition}:cloudformation:${stack.region}:${stack.account}:stack/${stack.name}/id`;
}

/** Every resource of the given type in every stack. */
export function resourcesOfType(stacks: readonly DeployedStack[], type: string): DeployedResource[] {
  return stacks.flatMap((stack) => [...stack.resources.values()].filter((resource) => resource.type === type));
}

/** The resource of any stack whose ARN (or Ref) is `arnOrRef`. */
export function resourceByArn(stacks: readonly DeployedStack[], arnOrRef: string): DeployedResource | undefined {
  for (const stack of stacks) {
    for (const resource of stack.resources.values()) {
      if (resource.arn === arnOrRef || resource.ref === arnOrRef) return resource;
    }
  }
  return undefined;
}

export type { PolicyDocument };
