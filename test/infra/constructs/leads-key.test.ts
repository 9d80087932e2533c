/**
 * Who can read the leads, answered by the key: the tables and the failed events' queue are
 * encrypted with the stack's one key, the leads', and its policy lets only the functions' roles,
 * the leads reader (if given) and CloudFormation's execution role use it, through DynamoDB or SQS;
 * three AWS services use it for their own resources of this stack alone (the log groups, the
 * alarms' and the rules' notices); the account administers it but cannot decrypt with it.
 */
import { functionResourcePrefix } from '../support/function-ids';
import { functionList } from '../../../core/api/catalogue/functions';
import { Template } from 'aws-cdk-lib/assertions';
import { keyAdministrationActions } from '../../../infra/constructs/leads-key';
import { synthTemplate } from '../support/synth';

interface Statement {
  readonly Sid?: string;
  readonly Effect: string;
  readonly Principal: { AWS?: unknown; Service?: unknown } | string;
  readonly Action: string | string[];
  readonly Condition?: Record<string, Record<string, unknown>>;
}

const dataActions = [
  'kms:Decrypt',
  'kms:Encrypt',
  'kms:GenerateDataKey*',
  'kms:ReEncrypt*',
  'kms:CreateGrant',
  'kms:*',
];
const actionsOf = (statement: Statement) => [statement.Action].flat();
const principalsOf = (statement: Statement) =>
  typeof statement.Principal === 'string' ? [statement.Principal] : [statement.Principal.AWS].flat();

function leadsKeyOf(template: Template): { logicalId: string; statements: Statement[] } {
  const [[logicalId, key]] = Object.entries(template.findResources('AWS::KMS::Key')).filter(([id]) =>
    id.startsWith('LeadsKey'),
  );
  return { logicalId, statements: (key.Properties.KeyPolicy as { Statement: Statement[] }).Statement };
}

const readerRoleArn = 'arn:aws:iam::111111111111:role/leads-reader';
/** A sender domain keeps the synth free of the no-domain warning, which is not what this file checks. */
const quiet = { senderDomain: 'example.com' };

describe("the leads' key", () => {
  const template = synthTemplate({ context: { ...quiet, leadsReaderRoleArn: readerRoleArn } });
  const { logicalId, statements } = leadsKeyOf(template);

  test("encrypts every table: the requests, the limit counters, the idempotency keys and the funnel's visitors of the day", () => {
    const tables = Object.values(template.findResources('AWS::DynamoDB::Table'));
    expect(tables).toHaveLength(4);
    for (const table of tables) {
      expect(table.Properties.SSESpecification).toEqual({
        SSEEnabled: true,
        SSEType: 'KMS',
        KMSMasterKeyId: { 'Fn::GetAtt': [logicalId, 'Arn'] },
      });
    }
  });

  test('lets the account administer it, and not decrypt, encrypt or grant with it', () => {
    const accountStatements = statements.filter(
      (statement) => statement.Effect === 'Allow' && JSON.stringify(principalsOf(statement)).includes(':root'),
    );
    expect(accountStatements).toHaveLength(1);
    expect(actionsOf(accountStatements[0]).sort()).toEqual([...keyAdministrationActions].sort());
    expect(actionsOf(accountStatements[0]).filter((action) => dataActions.includes(action))).toEqual([]);
  });

  const viaService = (service: string) => ({
    'kms:ViaService': { 'Fn::Join': ['', [`${service}.`, { Ref: 'AWS::Region' }, '.amazonaws.com']] },
    'kms:CallerAccount': { Ref: 'AWS::AccountId' },
  });
  const isService = (statement: Statement) =>
    typeof statement.Principal !== 'string' && statement.Principal.Service !== undefined;

  test('lets roles use it only through DynamoDB or SQS in its region, never anyone at large', () => {
    const uses = statements.filter(
      (statement) =>
        statement.Effect === 'Allow' && actionsOf(statement).includes('kms:Decrypt') && !isService(statement),
    );
    expect(uses.length).toBeGreaterThanOrEqual(4);
    for (const statement of uses) {
      expect(statement.Principal).not.toBe('*');
      expect(JSON.stringify(principalsOf(statement))).not.toContain(':root');
      const through = statement.Sid === 'FunctionsAndTheLeadsReaderUseTheQueue' ? 'sqs' : 'dynamodb';
      expect([statement.Sid, statement.Condition?.StringEquals]).toEqual([statement.Sid, viaService(through)]);
    }
  });

  test("lets three AWS services use it, each for this stack's own resources of one kind: log groups, alarms, topics", () => {
    const services = statements.filter((statement) => statement.Effect === 'Allow' && isService(statement));
    const conditionsOf = (statement: Statement) => JSON.stringify(statement.Condition);
    expect(
      services
        .map((statement) => [
          JSON.stringify((statement.Principal as { Service: unknown }).Service).replace(
            /.*(logs|cloudwatch|events).*/,
            '$1',
          ),
          /log-group:TestStack-\*|log-group:[A-Za-z0-9]+-\*/.test(conditionsOf(statement)) ||
            /:alarm:[A-Za-z0-9]+-\*/.test(conditionsOf(statement)) ||
            (/":sns:"/.test(conditionsOf(statement)) && /":[A-Za-z0-9]+-\*"/.test(conditionsOf(statement))),
        ])
        .sort(),
    ).toEqual([
      ['cloudwatch', true],
      ['events', true],
      ['logs', true],
    ]);
    const cloudWatch = services.find((s) => JSON.stringify(s.Principal).includes('cloudwatch'))!;
    expect(Object.keys(cloudWatch.Condition?.StringEquals ?? {})).toEqual(['aws:SourceAccount']);
    expect(Object.keys(cloudWatch.Condition?.ArnLike ?? {})).toEqual(['aws:SourceArn']);
    // EventBridge's KMS calls carry no source: it may encrypt for this stack's topics alone.
    const events = services.find((s) => JSON.stringify(s.Principal).includes('events'))!;
    expect(Object.keys(events.Condition?.ArnLike ?? {})).toEqual(['kms:EncryptionContext:aws:sns:topicArn']);
  });

  test("lets the event functions' roles and the leads reader send and read the failed events, through SQS", () => {
    const queue = statements.find((statement) => statement.Sid === 'FunctionsAndTheLeadsReaderUseTheQueue')!;
    expect(queue.Condition?.StringEquals).toEqual(viaService('sqs'));
    expect(principalsOf(queue)).toContain(readerRoleArn);
    const eventRoles = functionList
      .filter((fn) => fn.trigger.kind !== 'http' && fn.trigger.kind !== 'queue' && fn.onlyWith === undefined)
      .map((fn) => functionResourcePrefix(fn, 'Role'));
    const roleIds = principalsOf(queue)
      .filter((principal) => typeof principal !== 'string')
      .map((principal) => (principal as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]);
    expect(roleIds.length).toBe(eventRoles.length);
    for (const id of roleIds) expect(eventRoles.some((prefix) => id.startsWith(prefix))).toBe(true);
  });

  test('lets exactly the roles of the functions that use the tables read and write them', () => {
    const functions = statements.find((statement) => statement.Sid === 'FunctionsReadAndWriteTheTables')!;
    const roleIds = principalsOf(functions).map(
      (principal) => (principal as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0],
    );
    // Every function of the catalogue with a table grant, built in this stack (the digest needs an author).
    const tableUsers = functionList
      .filter((fn) => fn.tableAccess.length > 0 && fn.onlyWith === undefined)
      .map((fn) => functionResourcePrefix(fn, 'Role'));
    const roles = Object.keys(template.findResources('AWS::IAM::Role')).filter((id) =>
      tableUsers.some((prefix) => id.startsWith(prefix)),
    );
    expect(roles).toHaveLength(tableUsers.length);
    expect(roleIds.sort()).toEqual(roles.sort());
  });

  test('lets the leads reader role decrypt through DynamoDB, and nothing else', () => {
    const reader = statements.find((statement) => statement.Sid === 'LeadsReader')!;
    expect(principalsOf(reader)).toEqual([readerRoleArn]);
    expect(actionsOf(reader)).not.toContain('kms:CreateGrant');
  });

  test("lets CloudFormation's execution role create and re-key the tables (DynamoDB's grant included)", () => {
    const deployer = statements.find((statement) => statement.Sid === 'TablesCreatedByCloudFormation')!;
    expect(JSON.stringify(principalsOf(deployer))).toContain('cfn-exec-role');
    expect(actionsOf(deployer)).toContain('kms:CreateGrant');
  });

  test('refuses every grant but those AWS services make for a resource (Control Tower CT.KMS.PR.3)', () => {
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 'kms:CreateGrant',
        Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' } },
      }),
    );
  });
});

test('without leadsReaderRoleArn, only the functions, CloudFormation and the three services may use the key', () => {
  const { statements } = leadsKeyOf(synthTemplate({ context: quiet }));
  expect(statements.map((statement) => statement.Sid).sort()).toEqual(
    [
      'AccountAdministersTheKeyButCannotUseIt',
      'TablesCreatedByCloudFormation',
      'GrantsOnlyForAwsResources',
      'FunctionsReadAndWriteTheTables',
      'FunctionsAndTheLeadsReaderUseTheQueue',
      'CloudWatchLogsForThisStacksLogGroups',
      'CloudWatchAlarmsPublishToTheTopics',
      'EventBridgeRulesPublishToThePagesTopic',
    ].sort(),
  );
  const queue = statements.find((statement) => statement.Sid === 'FunctionsAndTheLeadsReaderUseTheQueue')!;
  expect(JSON.stringify(queue.Principal)).not.toContain('leads-reader');
});
