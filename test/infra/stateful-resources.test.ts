import type { Template } from 'aws-cdk-lib/assertions';
import { synthTemplate } from './support/synth';

/**
 * What happens to every resource that holds data when a deploy fails or the stack goes away. A
 * rolled-back first create must leave nothing a retry trips over (RetainExceptOnCreate), while
 * a deletion or a replacement keeps what holds data (Retain). The kept tables alone are Retain even
 * on a rolled-back create, with deletion protection: their names are fixed, and the retry adopts
 * them with `cdk deploy --import-existing-resources`. The funnel's visitors of the day are deleted
 * with the stack: the day's salt must not outlive its day, in a kept table or in a backup.
 */

/**
 * Log groups that are deleted with the stack, each with its reason: the handlers' logs of
 * deployment-time custom resources, which only list what a deployment did. Delete also removes
 * them on a rolled-back create, so they never block a retry.
 */
const deletedWithTheStack: Readonly<Record<string, string>> = {
  BucketDeploymentHandlerLogGroup: "BucketDeployment's handler: the files each deployment copied",
  SiteInvalidationHandlerLogs: "The invalidation's handler: one CreateInvalidation call per deployment",
};

type Policies = { readonly DeletionPolicy?: string; readonly UpdateReplacePolicy?: string };

function policiesOf(template: Template, type: string): Array<{ logicalId: string } & Policies> {
  return Object.entries(template.findResources(type)).map(([logicalId, resource]) => ({
    logicalId,
    DeletionPolicy: (resource as Policies).DeletionPolicy,
    UpdateReplacePolicy: (resource as Policies).UpdateReplacePolicy,
  }));
}

const removedOnRolledBackCreate = { DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' };

describe('stateful resources of the whole product', () => {
  let template: Template;
  beforeAll(() => {
    template = synthTemplate();
  });

  test("the leads' key is kept on delete and replacement, and removed when its create rolls back (a retry could never use it)", () => {
    const keys = policiesOf(template, 'AWS::KMS::Key').filter(({ logicalId }) => logicalId.startsWith('LeadsKey'));
    expect(keys).toEqual([{ logicalId: keys[0]?.logicalId, ...removedOnRolledBackCreate }]);
    expect(policiesOf(template, 'AWS::KMS::Key')).toHaveLength(1);
  });

  test('the tables keep the logical ids deployed stacks have, so their new key is an in-place update', () => {
    // SSESpecification changes with "no interruption" (CloudFormation's reference): same table, same items.
    const ids = Object.keys(template.findResources('AWS::DynamoDB::Table')).sort();
    expect(ids.filter((id) => !id.startsWith('DataFunnelVisitorsTable'))).toEqual([
      'DataIdempotencyTable36C198C8',
      'DataRequestsTable777D4D37',
      'DataSendQuotaTableD0DC22A0',
    ]);
  });

  test('every bucket is kept on delete and replacement, and removed when its create rolls back', () => {
    const buckets = policiesOf(template, 'AWS::S3::Bucket');
    expect(buckets).toHaveLength(3); // site, PDF, access logs
    for (const bucket of buckets) expect(bucket).toEqual({ logicalId: bucket.logicalId, ...removedOnRolledBackCreate });
  });

  test('no bucket has an auto-delete function (the buckets are kept, never emptied by the stack)', () => {
    expect(template.findResources('Custom::S3AutoDeleteObjects')).toEqual({});
  });

  test("every log group is kept on delete and replacement and removed when its create rolls back, but the deployment handlers'", () => {
    const logGroups = policiesOf(template, 'AWS::Logs::LogGroup');
    const isDeletedWithTheStack = (logicalId: string) =>
      Object.keys(deletedWithTheStack).some((prefix) => logicalId.startsWith(prefix));
    const kept = logGroups.filter((logGroup) => !isDeletedWithTheStack(logGroup.logicalId));
    const deleted = logGroups.filter((logGroup) => isDeletedWithTheStack(logGroup.logicalId));

    expect(kept.length).toBeGreaterThanOrEqual(4); // three functions' logs and the API's access logs
    for (const logGroup of kept)
      expect(logGroup).toEqual({ logicalId: logGroup.logicalId, ...removedOnRolledBackCreate });
    expect(deleted).toHaveLength(Object.keys(deletedWithTheStack).length);
    for (const logGroup of deleted) {
      expect(logGroup).toEqual({
        logicalId: logGroup.logicalId,
        DeletionPolicy: 'Delete',
        UpdateReplacePolicy: 'Delete',
      });
    }
  });

  test('the three kept tables are always kept and protected from deletion, whatever rolls back', () => {
    const tables = Object.entries(template.findResources('AWS::DynamoDB::Table'))
      .filter(([logicalId]) => !logicalId.startsWith('DataFunnelVisitorsTable'))
      .map(([logicalId, table]) => ({
        logicalId,
        TableName: (table as { Properties: { TableName: string } }).Properties.TableName,
        DeletionPolicy: (table as Policies).DeletionPolicy,
        UpdateReplacePolicy: (table as Policies).UpdateReplacePolicy,
        DeletionProtectionEnabled: (table as { Properties: { DeletionProtectionEnabled?: boolean } }).Properties
          .DeletionProtectionEnabled,
      }));
    expect(tables.map((table) => table.TableName).sort()).toEqual([
      'cheat_sheet_idempotency',
      'cheat_sheet_requests',
      'cheat_sheet_send_quotas',
    ]);
    for (const table of tables) {
      expect(table).toEqual({
        logicalId: table.logicalId,
        TableName: table.TableName,
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
        DeletionProtectionEnabled: true,
      });
    }
  });

  test("the visit function keeps the funnel's salt in a table no backup keeps, deleted with the stack, and only its counts in a kept one", () => {
    const visit = Object.values(template.findResources('AWS::Lambda::Function')).find(
      (fn) => fn.Properties.Environment?.Variables?.FUNNEL_VISITORS_TABLE_NAME !== undefined,
    );
    const variables = visit?.Properties.Environment.Variables as Record<string, { Ref: string }>;
    const tableOf = (variable: string) => template.toJSON().Resources[variables[variable].Ref];

    expect(tableOf('FUNNEL_VISITORS_TABLE_NAME')).toMatchObject({
      DeletionPolicy: 'Delete',
      Properties: {
        TableName: 'cheat_sheet_funnel_visitors',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
        DeletionProtectionEnabled: false,
      },
    });
    expect(tableOf('SEND_QUOTA_TABLE_NAME')).toMatchObject({
      Properties: { PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } },
    });
  });

  test("no role but the visit function's may touch the funnel's table of the day's visitors, where the salt is", () => {
    const policies = Object.entries(template.findResources('AWS::IAM::Policy'));
    const naming = policies.filter(([, policy]) => JSON.stringify(policy).includes('DataFunnelVisitorsTable'));
    const roles = naming.flatMap(([, policy]) => (policy.Properties.Roles as { Ref: string }[]).map(({ Ref }) => Ref));
    expect(roles).toEqual([expect.stringMatching(/^ApiCountVisitCountVisitRole/)]);
  });
});
