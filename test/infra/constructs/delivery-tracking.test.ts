import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { DeliveryTracking } from '../../../infra/constructs/delivery-tracking';
import { bareStack } from '../support/bare-stack';

/** The construct in a stack of its own, with two tables and a key. */
function trackingInBareStack() {
  const stack = bareStack({ env: { account: '123456789012', region: 'eu-west-1' } });
  const table = (id: string, name: string) =>
    new TableV2(stack, id, { tableName: name, partitionKey: { name: 'id', type: AttributeType.STRING } });
  const tracking = new DeliveryTracking(stack, 'DeliveryTracking', {
    requestsTable: table('Requests', 'cheat_sheet_requests'),
    limitCountersTable: table('Counters', 'cheat_sheet_send_quotas'),
    configurationSetName: 'product-set',
    encryptionKey: new Key(stack, 'Key'),
  });
  return { stack, tracking, template: Template.fromStack(stack) };
}

/** The actions a role's policy allows, by resource (the table's logical id). */
function grantsOf(template: Template, rolePrefix: string): Array<{ actions: unknown; resource: unknown }> {
  const policy = Object.entries(template.findResources('AWS::IAM::Policy')).find(([id]) =>
    id.startsWith(rolePrefix),
  )![1];
  const statements = policy.Properties.PolicyDocument.Statement as Array<{ Action: unknown; Resource: unknown }>;
  return statements
    .filter(({ Action }) => [Action].flat().some((action) => String(action).startsWith('dynamodb:')))
    .map(({ Action, Resource }) => ({ actions: Action, resource: Resource }));
}

describe('the delivery tracking construct', () => {
  const { template } = trackingInBareStack();

  test("invokes the SES events function for this configuration set's delivery, bounce and complaint events only", () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.ses'],
        'detail-type': ['Email Delivered', 'Email Bounced', 'Email Complaint Received'],
        account: ['123456789012'],
        detail: { mail: { tags: { 'ses:configuration-set': ['product-set'] } } },
      },
      Targets: [Match.objectLike({ RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21600 } })],
    });
  });

  test('runs the unsent check every 15 minutes', () => {
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(15 minutes)' });
  });

  test('grants the SES events function UpdateItem on the two tables, and nothing else of DynamoDB', () => {
    const [grant, ...others] = grantsOf(template, 'DeliveryTrackingSesEventsRole');
    expect(others).toEqual([]);
    expect(grant!.actions).toBe('dynamodb:UpdateItem');
    expect(JSON.stringify(grant!.resource)).toMatch(/"Requests\w+","Arn"/);
    expect(JSON.stringify(grant!.resource)).toMatch(/"Counters\w+","Arn"/);
  });

  test('grants the unsent check a Scan of the requests table alone', () => {
    expect(grantsOf(template, 'DeliveryTrackingUnsentCheckRole')).toEqual([
      { actions: 'dynamodb:Scan', resource: { 'Fn::GetAtt': [expect.stringMatching(/^Requests/), 'Arn'] } },
    ]);
  });

  test("gives both functions the tables' names under the contract's variables", () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions).toHaveLength(2);
    for (const fn of functions) {
      expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(
        expect.arrayContaining(['TABLE_NAME', 'SEND_QUOTA_TABLE_NAME']),
      );
    }
  });
});
