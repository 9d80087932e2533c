/**
 * `npm run rehearse` without a stage: the default stack (web ACL on, us-east-1), every edge judged
 * against its own policies and none refused; a key policy without CloudWatch's statement for the
 * alarms is found. And what its functions' roles allow on the requests table: no Scan, no DeleteItem.
 */
import { emailIndex, unsentIndex } from '../../../../core/data/tables';
import { judge } from '../../../../infra/tools/rehearsal/judge';
import { rolesOf } from '../../../../infra/tools/rehearsal/policies';
import { rehearse } from '../../../../infra/tools/rehearsal/rehearsal';
import { deployedStacks, resourcesOf, synthAssembly } from '../../support/deployed-app';

let assembly: string;
beforeAll(() => {
  assembly = synthAssembly({ senderEmail: 'cheatsheet@example.com' });
});

test('the default stack refuses no edge', async () => {
  const report = await rehearse(deployedStacks(assembly));
  expect(report.refusals).toEqual([]);
  expect(report.edgesJudged).toBeGreaterThan(25);
});

test("a key policy without CloudWatch's statement fails the rehearsal, naming the alarm, the action and the key", async () => {
  const report = await rehearse(
    deployedStacks(assembly, {
      stack: 'First100DaysSite',
      change: (template) => {
        for (const [, key] of resourcesOf(template, 'AWS::KMS::Key')) {
          const statements = key.Properties.KeyPolicy.Statement as { Principal?: { Service?: string } }[];
          key.Properties.KeyPolicy.Statement = statements.filter(
            (statement) => statement.Principal?.Service !== 'cloudwatch.amazonaws.com',
          );
        }
      },
    }),
  );
  expect(report.refusals.length).toBeGreaterThan(0);
  for (const refusal of report.refusals) {
    expect(refusal).toMatch(
      /^alarm \S+ → key LeadsKey\S+ of topic \S+ \(kms:(GenerateDataKey|Decrypt)\): cloudwatch\.amazonaws\.com may not kms:(GenerateDataKey|Decrypt) on arn:aws:kms:/,
    );
  }
});

test('no function of the default stack may Scan or DeleteItem the requests table; the unsent check may Query its unsent index only', async () => {
  const stacks = deployedStacks(assembly);
  const [table] = stacks.flatMap((stack) =>
    [...stack.resources.values()].filter(
      (resource) => resource.type === 'AWS::DynamoDB::Table' && resource.ref === 'cheat_sheet_requests',
    ),
  );
  const functionRoles = new Set(
    stacks.flatMap((stack) =>
      [...stack.resources.values()]
        .filter((resource) => resource.type === 'AWS::Lambda::Function')
        .map((fn) => (fn.properties as { Role: string }).Role),
    ),
  );
  const roles = rolesOf(stacks).filter((role) => functionRoles.has(role.arn));
  expect(roles.length).toBeGreaterThanOrEqual(6);
  const allowed: string[] = [];
  for (const role of roles) {
    for (const action of ['dynamodb:Scan', 'dynamodb:DeleteItem']) {
      const request = { principal: role.arn, action, resource: table.arn!, resourceAccount: table.stack.account };
      if ((await judge(request, { identity: role.identityPolicies })).allowed)
        allowed.push(`${role.resource.logicalId} ${action}`);
    }
  }
  expect(allowed).toEqual([]);
  const unsentCheck = roles.find((role) => role.resource.logicalId.includes('UnsentCheck'))!;
  const query = (resource: string) =>
    judge(
      { principal: unsentCheck.arn, action: 'dynamodb:Query', resource, resourceAccount: table.stack.account },
      { identity: unsentCheck.identityPolicies },
    );
  expect((await query(`${table.arn}/index/${unsentIndex.name}`)).allowed).toBe(true);
  expect((await query(`${table.arn}/index/${emailIndex.name}`)).allowed).toBe(false);
  expect((await query(table.arn!)).allowed).toBe(false);
});
