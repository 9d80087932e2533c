/**
 * The weekly digest in the template: with `authorEmail`, a Monday schedule invoking a small
 * function that may Scan the requests table, get the funnel's day counts from the counters' table and send as the
 * sender, its failures to the dead-letter queue, and the leads' key letting its role read; without it, none of that
 * exists.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { catalogueFunctions } from '../../core/api/catalogue/functions';
import { funnelDayId } from '../../core/data/funnel';
import { alarmsOf } from './support/alarms';
import { resourceByPrefix, synthTemplate } from './support/synth';

/** A sender domain keeps the synth free of the no-domain warning, which is not what this file checks. */
const context = { senderDomain: 'example.com' };

const digestFunctions = (template: Template) =>
  Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) =>
    id.startsWith('EventFunctionsLeadDigest'),
  );

describe('with authorEmail', () => {
  const template = synthTemplate({ context: { ...context, authorEmail: 'author@example.com' } });
  const [[functionId, fn]] = digestFunctions(template);

  test('a rule invokes the digest function every Monday at 07:00 UTC, retrying twice', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(0 7 ? * MON *)',
      State: 'ENABLED',
      Targets: [
        {
          Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
          Id: 'Target0',
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21600 },
        },
      ],
    });
  });

  test('the function is sized as its entry in the catalogue of functions says', () => {
    expect(fn.Properties).toMatchObject({
      MemorySize: catalogueFunctions.leadDigest.memoryMb,
      Timeout: catalogueFunctions.leadDigest.timeoutSeconds,
      Description: catalogueFunctions.leadDigest.description,
    });
  });

  test("the function mails the author, from the sender, through the product's configuration set", () => {
    const variables = (fn.Properties as { Environment: { Variables: Record<string, unknown> } }).Environment.Variables;
    expect(variables).toMatchObject({ AUTHOR_EMAIL: 'author@example.com', SENDER_EMAIL: 'cheatsheet@example.com' });
    const requestsTable = resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataRequestsTable').logicalId;
    expect(variables.TABLE_NAME).toEqual({ Ref: requestsTable });
    // The funnel's day counts, this week against the last.
    expect(variables.SEND_QUOTA_TABLE_NAME).toEqual({
      Ref: resourceByPrefix(template, 'AWS::DynamoDB::Table', 'DataSendQuotaTable').logicalId,
    });
    expect(variables.SES_CONFIGURATION_SET_NAME).toEqual({
      Ref: resourceByPrefix(template, 'AWS::SES::ConfigurationSet', 'MailConfigurationSet').logicalId,
    });
  });

  test("its role may Scan the requests table, GetItem the counters' table and send as the sender identity, and nothing else of the data", () => {
    const role = (fn.Properties as { Role: { 'Fn::GetAtt': [string, string] } }).Role['Fn::GetAtt'][0];
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.Roles).includes(role),
    );
    const statements = policies.flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
    );
    const actions = statements.flatMap((s) => [s.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Scan', 'ses:SendEmail']));
    expect(actions.filter((action) => action.startsWith('dynamodb:')).sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:Scan',
    ]);
    const tableOf = (action: string) =>
      statements.filter((s) => [s.Action].flat().includes(action)).map((s) => s.Resource);
    const arnOf = (prefix: string) => ({
      'Fn::GetAtt': [resourceByPrefix(template, 'AWS::DynamoDB::Table', prefix).logicalId, 'Arn'],
    });
    expect(tableOf('dynamodb:Scan')).toEqual([arnOf('DataRequestsTable')]);
    expect(tableOf('dynamodb:GetItem')).toEqual([arnOf('DataSendQuotaTable')]);
    // Of that table, the funnel's day counts alone: not the suppressions or the limits' counters.
    const [getItem] = statements.filter((s) => [s.Action].flat().includes('dynamodb:GetItem')) as {
      Condition?: unknown;
    }[];
    expect(getItem.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [funnelDayId('*')] },
    });
  });

  test("the leads' key lets the digest's role decrypt the table through DynamoDB", () => {
    const role = (fn.Properties as { Role: { 'Fn::GetAtt': [string, string] } }).Role['Fn::GetAtt'][0];
    const key = resourceByPrefix(template, 'AWS::KMS::Key', 'LeadsKey').resource;
    const statements = (key.Properties.KeyPolicy as { Statement: { Sid?: string; Principal: unknown }[] }).Statement;
    const functions = statements.find((statement) => statement.Sid === 'FunctionsReadAndWriteTheTables');
    expect(JSON.stringify(functions?.Principal)).toContain(role);
  });

  test('a digest that still fails after its two retries goes to the dead-letter queue, which opens a ticket', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: functionId },
      MaximumRetryAttempts: 2,
    });
    const [alarm] = alarmsOf(template).filter((a) => a.Properties.AlarmName.endsWith('-DeadLetters-FailedEvents'));
    expect(alarm.Properties.AlarmDescription).toMatch(
      /^Hurt: the dead-letter queue of FailedEvents\. Severity: ticket\. /,
    );
  });

  test("its log group is an output, as every function's is", () => {
    expect(Object.keys(template.findOutputs('LeadDigestLogGroupName'))).toEqual(['LeadDigestLogGroupName']);
  });
});

test('without authorEmail, there is no schedule, no digest function and no digest alarm', () => {
  const template = synthTemplate({ context });
  expect(digestFunctions(template)).toEqual([]);
  expect(
    template.findResources('AWS::Events::Rule', { Properties: { ScheduleExpression: 'cron(0 7 ? * MON *)' } }),
  ).toEqual({});
  expect(alarmsOf(template).filter((a) => a.Properties.AlarmName.includes('LeadDigest'))).toEqual([]);
});
