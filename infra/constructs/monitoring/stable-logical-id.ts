import { createHash } from 'node:crypto';
import { Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/**
 * The logical id a resource would have if it sat beside `family` instead of inside it.
 *
 * Why: the alarms were deployed as direct children of `Monitoring`, with fixed names. Under a new
 * logical id, CloudFormation would create the "new" alarm (CloudWatch overwrites the one of that
 * name) and then delete the "old" one, which deletes the alarm by that name: every alarm would
 * vanish on the first deploy after the split. Keeping the ids makes the split a no-op in
 * CloudFormation. The algorithm is CDK's own (`makeUniqueId`), stable since CDK 1 because every
 * deployed stack depends on it.
 */
export function logicalIdBeside(family: Construct, pathBelowFamily: readonly string[]): string {
  const scopes = family.node.scopes;
  const betweenStackAndFamily = scopes.slice(scopes.indexOf(Stack.of(family)) + 1, -1).map(({ node }) => node.id);
  return uniqueId([...betweenStackAndFamily, ...pathBelowFamily]);
}

const hiddenId = 'Default';
const hiddenFromHumanId = 'Resource';

function uniqueId(path: readonly string[]): string {
  const components = path.filter((component) => component !== hiddenId);
  const alphanumeric = (component: string) => component.replace(/[^A-Za-z0-9]/g, '');
  if (components.length === 1 && alphanumeric(components[0]).length <= 255) return alphanumeric(components[0]);
  const hash = createHash('md5').update(components.join('/')).digest('hex').slice(0, 8).toUpperCase();
  // Like CDK, a component that the one kept before it ends with is dropped from the readable part.
  const withoutRepeats = components.reduce<string[]>(
    (kept, component) => (kept.length > 0 && kept[kept.length - 1].endsWith(component) ? kept : [...kept, component]),
    [],
  );
  const human = withoutRepeats
    .filter((component) => component !== hiddenFromHumanId)
    .map(alphanumeric)
    .join('')
    .slice(0, 240);
  return human + hash;
}
