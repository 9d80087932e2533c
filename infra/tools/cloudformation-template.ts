/**
 * Typed read access to a synthesized CloudFormation template: the few shapes the build-time tools
 * read, and how they render intrinsics. CloudFormation's JSON has one schema per resource type;
 * each reader names the properties it reads in a small interface (`propertiesOf<T>`).
 */
import type { CloudFormationStackArtifact } from 'aws-cdk-lib/cx-api';

/** Any JSON value of a template. */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: { readonly [key: string]: Json };
  readonly DeletionPolicy?: string;
  readonly Condition?: string;
}

interface Template {
  readonly Resources?: Readonly<Record<string, TemplateResource>>;
}

/** One IAM or resource-policy statement. */
export interface Statement {
  readonly Sid?: string;
  readonly Effect: string;
  readonly Action?: string | readonly string[];
  readonly Resource?: Json;
  readonly Principal?: Json;
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, Json>>>>;
}

export interface PolicyDocument {
  readonly Statement?: readonly Statement[];
}

/** A stack as the tools read it. */
export interface StackView {
  readonly name: string;
  readonly environment: string;
  readonly resources: Readonly<Record<string, TemplateResource>>;
  /** Logical ID → construct path (without the leading `/`). */
  readonly paths: ReadonlyMap<string, string>;
}

export function stackView(artifact: CloudFormationStackArtifact): StackView {
  const paths = new Map<string, string>();
  for (const entry of artifact.findMetadataByType('aws:cdk:logicalId')) {
    // A logical ID entry's data is the ID itself.
    if (typeof entry.data === 'string') paths.set(entry.data, entry.path.replace(/^\//, ''));
  }
  const { account, region } = artifact.environment;
  const environment =
    account === 'unknown-account' && region === 'unknown-region'
      ? 'environment-agnostic: the account and region of whoever deploys it'
      : `account ${account}, region ${region}`;
  return {
    name: artifact.stackName,
    environment,
    resources: (artifact.template as Template).Resources ?? {},
    paths,
  };
}

/**
 * A resource's properties as the shape `T` the caller reads, every field optional: a template is
 * CDK's output, and each reader tolerates a property being absent.
 */
export function propertiesOf<T extends object>(resource: TemplateResource): Partial<T> {
  return (resource.Properties ?? {}) as Partial<T>;
}

/** The resources of one type, with their logical IDs. */
export function resourcesOfType(view: StackView, type: string): Array<[string, TemplateResource]> {
  return Object.entries(view.resources).filter(([, resource]) => resource.Type === type);
}

export const asList = <T>(value: T | readonly T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? [...(value as readonly T[])] : [value as T];

const isRecord = (value: Json | undefined): value is { readonly [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An intrinsic as cdk-nag writes it: `<Bucket.Arn>`, `<AWS::AccountId>`; strings as they are. */
export function renderValue(value: Json | undefined): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return (value as readonly Json[]).map(renderValue).join(', ');
  if (isRecord(value)) {
    if ('Ref' in value) return `<${renderValue(value.Ref)}>`;
    if ('Fn::GetAtt' in value) {
      const [id, attribute] = value['Fn::GetAtt'] as readonly [string, string];
      return `<${id}.${attribute}>`;
    }
    if ('Fn::Join' in value) {
      const [separator, parts] = value['Fn::Join'] as readonly [string, readonly Json[]];
      return parts.map(renderValue).join(separator);
    }
    if ('Fn::Select' in value) {
      const [index, list] = value['Fn::Select'] as readonly [number, Json];
      return `select(${index}, ${renderValue(list)})`;
    }
    if ('Fn::Split' in value) {
      const [separator, source] = value['Fn::Split'] as readonly [string, Json];
      return `split('${separator}', ${renderValue(source)})`;
    }
    if ('Fn::Sub' in value) return renderValue(asList(value['Fn::Sub'])[0]).replace(/\$\{([^}]+)\}/g, '<$1>');
    if ('Fn::GetStackOutput' in value) return '<output of the web ACL stack>';
  }
  return JSON.stringify(value);
}

/** The logical IDs a value refers to with Ref or Fn::GetAtt. */
export function referencedIds(value: unknown): string[] {
  const text = JSON.stringify(value ?? null);
  return [...text.matchAll(/"(?:Ref|Fn::GetAtt)":\s*(?:"([A-Za-z0-9]+)"|\["([A-Za-z0-9]+)")/g)].map(
    (match) => match[1] ?? match[2],
  );
}

export function renderCondition(condition: Statement['Condition']): string {
  if (!condition) return '–';
  return Object.entries(condition)
    .flatMap(([operator, keys]) =>
      Object.entries(keys).map(([key, value]) => `${key} ${operator} ${asList(value).map(renderValue).join(' or ')}`),
    )
    .join('; ');
}

export function renderPrincipal(principal: Json | undefined): string {
  if (principal === '*') return 'anyone (*)';
  if (isRecord(principal)) {
    return Object.entries(principal)
      .map(([kind, value]) => `${kind}: ${asList(value).map(renderValue).join(', ')}`)
      .join('; ');
  }
  return renderValue(principal);
}

/** Resource-policy statements in one line each: who may do what, under which condition. */
export function renderPolicy(statements: readonly Statement[]): string {
  return statements
    .map(
      (statement) =>
        `${statement.Effect} ${renderPrincipal(statement.Principal)}: ${asList(statement.Action).join(', ')}` +
        (statement.Condition ? ` (${renderCondition(statement.Condition)})` : ''),
    )
    .join('; ');
}

/** The statements of the policies of `policyType` whose `targetKey` names `logicalId`. */
export function policiesOf(view: StackView, policyType: string, targetKey: string, logicalId: string): Statement[] {
  return Object.values(view.resources)
    .filter(
      (resource) =>
        resource.Type === policyType &&
        asList(resource.Properties?.[targetKey]).some((target) => referencedIds(target).includes(logicalId)),
    )
    .flatMap((resource) => propertiesOf<{ PolicyDocument: PolicyDocument }>(resource).PolicyDocument?.Statement ?? []);
}

export const deletion = (resource: TemplateResource) =>
  resource.DeletionPolicy === 'Retain' || resource.DeletionPolicy === 'RetainExceptOnCreate'
    ? 'kept when the stack is deleted'
    : 'deleted with the stack';
