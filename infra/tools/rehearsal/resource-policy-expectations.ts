/**
 * What each resource policy (key, topic, queue, bucket) admits besides the service edges (which
 * negative-edges.ts judges): every principal an Allow statement names, asked with no condition key
 * at all (no `kms:ViaService`, no source). Refused when a key statement lets a principal decrypt
 * outside the service it is meant for (a key statement without `kms:ViaService` decrypts every
 * table, queue and topic under the key, by any path), when a statement admits anyone (`*`), or an
 * account's principal that is neither one of the stacks' roles nor the key's own account.
 */
import { resourcesOfType, type DeployedResource, type DeployedStack } from './deployed-stacks';
import { judge, type Policies } from './judge';
import { resourcePolicyOf, rolesOf, type Statement } from './policies';
import { otherAccount } from './negative-edges';

/** What an unconditioned principal is asked, per resource type: the action that reads the data. */
const readingAction: Readonly<Record<string, { action: string; resource: (arn: string) => string }>> = {
  'AWS::KMS::Key': { action: 'kms:Decrypt', resource: (arn) => arn },
  'AWS::SNS::Topic': { action: 'sns:Publish', resource: (arn) => arn },
  'AWS::SQS::Queue': { action: 'sqs:ReceiveMessage', resource: (arn) => arn },
  'AWS::S3::Bucket': { action: 's3:GetObject', resource: (arn) => `${arn}/any-object` },
};

const everyone = {
  name: 'an Allow of everything',
  policy: { Version: '2012-10-17' as const, Statement: [{ Effect: 'Allow' as const, Action: '*', Resource: '*' }] },
};

function awsPrincipals(statement: Statement): string[] {
  const principal = statement.Principal;
  if (principal === '*') return ['*'];
  const aws = (principal as { AWS?: unknown } | undefined)?.AWS;
  return aws === undefined ? [] : [aws].flat().map(String);
}

/** Who asks for a principal: an administrator of the named account, an outsider for `*`, else the principal. */
function caller(principal: string, account: string): string {
  if (principal === '*') return `arn:aws:iam::${otherAccount}:role/Outsider`;
  const root = /^arn:aws:iam::(\d{12}):root$/.exec(principal) ?? /^(\d{12})$/.exec(principal);
  return root ? `arn:aws:iam::${root[1] ?? account}:role/Administrator` : principal;
}

export async function judgeResourcePolicies(
  stacks: readonly DeployedStack[],
): Promise<{ judged: number; refusals: string[] }> {
  const refusals: string[] = [];
  let judged = 0;
  const stackRoles = new Set(rolesOf(stacks).map((role) => role.arn));
  const holders: DeployedResource[] = Object.keys(readingAction).flatMap((type) => resourcesOfType(stacks, type));
  for (const resource of holders) {
    const policy = resourcePolicyOf(stacks, resource);
    if (!policy || !resource.arn) continue;
    const { action, resource: target } = readingAction[resource.type];
    for (const [index, statement] of policy.Statement.entries()) {
      if (statement.Effect !== 'Allow') continue;
      for (const principal of awsPrincipals(statement)) {
        const asker = caller(principal, resource.stack.account);
        const policies: Policies = {
          identity: [everyone],
          resource: { Version: '2012-10-17', Statement: [statement] },
        };
        judged += 1;
        // What KMS always knows of a caller, and nothing else: no kms:ViaService, no source.
        const request = {
          principal: asker,
          action,
          resource: target(resource.arn),
          resourceAccount: resource.stack.account,
          context: { 'kms:CallerAccount': asker.split(':')[4] },
        };
        if (!(await judge(request, policies)).allowed) continue;
        const where = `${resource.type.split('::')[2].toLowerCase()} ${resource.logicalId} (${resource.stack.name}) statement ${index}`;
        if (resource.type === 'AWS::KMS::Key') {
          refusals.push(`${where}: ${principal} may ${action} with no kms:ViaService, so through any path`);
        } else if (principal === '*') {
          refusals.push(`${where}: admits anyone to ${action} with no condition`);
        } else if (!stackRoles.has(principal) && !asker.includes(`::${resource.stack.account}:role/Administrator`)) {
          refusals.push(`${where}: admits ${principal}, beyond its expectation, to ${action}`);
        }
      }
    }
  }
  return { judged, refusals };
}
