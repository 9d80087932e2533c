/**
 * What each function may do, beyond what the scenarios use: its catalogue entry is its expectation
 * (core/api/catalogue/functions.ts: `trigger`, `tableAccess` with each grant's `why`, `grants`).
 * Two rules no entry can waive, judged on the templates:
 * - a function a visitor reaches (an `http` trigger) may never read or delete the requests in bulk:
 *   no Scan, DeleteItem, BatchWriteItem, PartiQL or export on the requests table, whatever its entry
 *   says (the digest and the leads roles read them; a public function, compromised or tricked,
 *   would hand every lead to whoever calls it);
 * - a grant no scenario used stays only with a written reason (function-calls.ts' reasonFor: the
 *   catalogue's `why`, or a known cause); one without fails the rehearsal.
 */
import { functionList } from '../../../core/api/catalogue/functions';
import { requestsTable } from '../../../core/data/tables';
import { resourcesOfType, type DeployedStack } from './deployed-stacks';
import { judge } from './judge';
import { roleByArn } from './policies';

/** The bulk actions on the requests table no public function may hold. */
export const bulkRequestActions = [
  'dynamodb:Scan',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLSelect',
  'dynamodb:PartiQLDelete',
  'dynamodb:ExportTableToPointInTime',
] as const;

/** The unused-grant lines (function-calls.ts' unusedGrants) that no written reason allows. */
export const unexplainedGrants = (unused: readonly string[]): string[] =>
  unused.filter((grant) => grant.endsWith(': no scenario made this call'));

/** Each public function's role allowed a bulk action on the requests table, naming its statements. */
export async function publicFunctionOverreach(stacks: readonly DeployedStack[]): Promise<string[]> {
  const refusals: string[] = [];
  const [table] = resourcesOfType(stacks, 'AWS::DynamoDB::Table').filter(
    (resource) => resource.ref === requestsTable.name,
  );
  if (!table?.arn) return refusals;
  for (const fn of functionList.filter((entry) => entry.trigger.kind === 'http')) {
    const deployed = resourcesOfType(stacks, 'AWS::Lambda::Function').find((resource) =>
      resource.logicalId.includes(`${fn.id}Function`),
    );
    const role = deployed && roleByArn(stacks, (deployed.properties as { Role?: string }).Role ?? '');
    if (!role) continue;
    for (const action of bulkRequestActions) {
      const request = { principal: role.arn, action, resource: table.arn, resourceAccount: table.stack.account };
      if (!(await judge(request, { identity: role.identityPolicies })).allowed) continue;
      const statements: string[] = [];
      for (const { name, policy } of role.identityPolicies) {
        for (const [index, statement] of policy.Statement.entries()) {
          const alone = { name, policy: { ...policy, Statement: [statement] } };
          if ((await judge(request, { identity: [alone] })).allowed) statements.push(`${name} statement ${index}`);
        }
      }
      refusals.push(
        `${fn.name} (public: ${fn.trigger.kind === 'http' ? `${fn.trigger.method} ${fn.trigger.path}` : ''}) may ${action} on ${table.arn} (${statements.join(', ')}): no function a visitor reaches may read or delete the requests in bulk`,
      );
    }
  }
  return refusals;
}
