/**
 * The functions no route invokes, in a stack of their own: each built from its catalogue entry,
 * each with its trigger (the SES events' rule, the unsent check's schedule, the pause function's
 * subscription to the alarm topic) and exactly its grants.
 */
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Alarm, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { functionList } from '../../../core/api/catalogue/functions';
import { EventFunctions, type EventFunctionsProps } from '../../../infra/constructs/event-functions';
import { bareStack } from '../support/bare-stack';

const configurationSetArn = 'arn:aws:ses:eu-west-1:123456789012:configuration-set/product-set';

/** The construct in a stack of its own, with two tables, a topic, two alarms and a key. */
function eventFunctionsInBareStack(props: Partial<EventFunctionsProps> = {}) {
  const stack = bareStack({ env: { account: '123456789012', region: 'eu-west-1' } });
  const table = (id: string, name: string) =>
    new TableV2(stack, id, { tableName: name, partitionKey: { name: 'id', type: AttributeType.STRING } });
  const alarm = (name: string) =>
    new Alarm(stack, name, {
      alarmName: name,
      metric: new Metric({ namespace: 'AWS/SES', metricName: name }),
      threshold: 1,
      evaluationPeriods: 1,
    });
  const functions = new EventFunctions(stack, 'EventFunctions', {
    requestsTable: table('Requests', 'cheat_sheet_requests'),
    limitCountersTable: table('Counters', 'cheat_sheet_send_quotas'),
    senderEmail: 'cheatsheet@example.com',
    senderIdentityArn: 'arn:aws:ses:eu-west-1:123456789012:identity/example.com',
    configurationSetName: 'product-set',
    configurationSetArn,
    alarmTopic: new Topic(stack, 'AlarmTopic'),
    pauseOnAlarms: [alarm('Site-ConfigurationSetBounceRate'), alarm('Site-ConfigurationSetComplaintRate')],
    encryptionKey: new Key(stack, 'Key'),
    originSecret: new Secret(stack, 'OriginSecret'),
    ...props,
  });
  return { stack, functions, template: Template.fromStack(stack) };
}

/** The actions a role's policy allows on DynamoDB, by resource (the table's logical id). */
function grantsOf(template: Template, rolePrefix: string): Array<{ actions: unknown; resource: unknown }> {
  const policy = Object.entries(template.findResources('AWS::IAM::Policy')).find(([id]) =>
    id.startsWith(rolePrefix),
  )![1];
  const statements = policy.Properties.PolicyDocument.Statement as Array<{ Action: unknown; Resource: unknown }>;
  return statements
    .filter(({ Action }) => [Action].flat().some((action) => String(action).startsWith('dynamodb:')))
    .map(({ Action, Resource }) => ({ actions: Action, resource: Resource }));
}

/** The variables of the function whose logical id starts with `prefix`. */
function variablesOf(template: Template, prefix: string): Record<string, unknown> {
  const [, fn] = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(prefix))!;
  return fn.Properties.Environment.Variables as Record<string, unknown>;
}

describe('the functions no route invokes', () => {
  const { template } = eventFunctionsInBareStack();

  test('are every entry of the catalogue invoked by a schedule or an event pattern, the digest only with an author, the canary only with its site', () => {
    // Not the routes (the Api's) nor a queue's reader (built by the construct that owns its queue).
    const scheduledOrEvent = functionList.filter((fn) => fn.trigger.kind === 'schedule' || fn.trigger.kind === 'event');
    expect(Object.keys(template.findResources('AWS::Lambda::Function'))).toHaveLength(
      scheduledOrEvent.filter((fn) => fn.onlyWith === undefined && fn.offWith === undefined).length,
    );
    const withBoth = eventFunctionsInBareStack({
      authorEmail: 'author@example.com',
      canarySiteUrl: 'https://books.example.com',
    }).template;
    expect(Object.keys(withBoth.findResources('AWS::Lambda::Function'))).toHaveLength(scheduledOrEvent.length);
  });

  test("gives the canary the site's address, the requests table and the deployment's secret, and a schedule of 5 minutes", () => {
    const { template: withCanary } = eventFunctionsInBareStack({ canarySiteUrl: 'https://books.example.com' });
    const canary = Object.values(withCanary.findResources('AWS::Lambda::Function')).find((fn) =>
      JSON.stringify(fn.Properties.Environment).includes('CANARY_SITE_URL'),
    )!;
    expect(canary.Properties.Environment.Variables).toMatchObject({
      CANARY_SITE_URL: 'https://books.example.com',
      TABLE_NAME: expect.anything(),
      ORIGIN_SECRET_ARN: expect.anything(),
    });
    withCanary.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(5 minutes)' });
  });

  test("invoke the SES events function for this configuration set's delivery, bounce and complaint events only", () => {
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

  test('run the unsent check every 15 minutes, without retries', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [Match.objectLike({ RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
  });

  test('grant the SES events function UpdateItem on the two tables, and nothing else of DynamoDB', () => {
    const [grant, ...others] = grantsOf(template, 'EventFunctionsSesEventsSesEventsRole');
    expect(others).toEqual([]);
    expect(grant!.actions).toBe('dynamodb:UpdateItem');
    expect(JSON.stringify(grant!.resource)).toMatch(/"Requests\w+","Arn"/);
    expect(JSON.stringify(grant!.resource)).toMatch(/"Counters\w+","Arn"/);
  });

  test('let the SES events function read the origin secret, named by its variable, and the unsent check neither', () => {
    const reads = (prefix: string) =>
      Object.entries(template.findResources('AWS::IAM::Policy'))
        .filter(([id]) => id.startsWith(prefix))
        .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[])
        .filter((statement) => statement.Action === 'secretsmanager:GetSecretValue')
        .map((statement) => statement.Resource);
    const secret = { Ref: expect.stringMatching(/^OriginSecret/) };
    expect(reads('EventFunctionsSesEventsSesEventsRole')).toEqual([secret]);
    expect(variablesOf(template, 'EventFunctionsSesEvents').ORIGIN_SECRET_ARN).toEqual(secret);
    expect(reads('EventFunctionsUnsentCheckUnsentCheckRole')).toEqual([]);
    expect(variablesOf(template, 'EventFunctionsUnsentCheck')).not.toHaveProperty('ORIGIN_SECRET_ARN');
  });

  test('grant the unsent check a Query of the sparse unsent index alone: no Scan, no read of the table', () => {
    expect(grantsOf(template, 'EventFunctionsUnsentCheckUnsentCheckRole')).toEqual([
      {
        actions: 'dynamodb:Query',
        resource: {
          'Fn::Join': [
            '',
            [{ 'Fn::GetAtt': [expect.stringMatching(/^Requests/), 'Arn'] }, '/index/unsent_queue-requested_at-index'],
          ],
        },
      },
    ]);
  });

  test("give the delivery functions the tables' names under the contract's variables", () => {
    for (const prefix of ['EventFunctionsSesEvents', 'EventFunctionsUnsentCheck']) {
      expect(Object.keys(variablesOf(template, prefix))).toEqual(
        expect.arrayContaining(['TABLE_NAME', 'SEND_QUOTA_TABLE_NAME']),
      );
    }
  });

  test('let the pause function call only PutConfigurationSetSendingOptions, on the product configuration set only', () => {
    const policy = Object.entries(template.findResources('AWS::IAM::Policy')).find(([id]) =>
      id.startsWith('EventFunctionsPauseSending'),
    )![1];
    const statements = (policy.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).filter(
      ({ Action }) => [Action].flat().some((action) => action.startsWith('ses:')),
    );
    expect(statements).toEqual([
      { Action: 'ses:PutConfigurationSetSendingOptions', Effect: 'Allow', Resource: configurationSetArn },
    ]);
  });

  test('tell the pause function the configuration set and the two alarms that pause it', () => {
    const variables = variablesOf(template, 'EventFunctionsPauseSending');
    expect(variables.CONFIGURATION_SET_NAME).toBe('product-set');
    // The alarms' names, joined with commas.
    expect(JSON.stringify(variables.PAUSE_ON_ALARMS)).toMatch(
      /^\{"Fn::Join":\["",\[\{"Ref":"SiteConfigurationSetBounceRate\w+"\},",",\{"Ref":"SiteConfigurationSetComplaintRate\w+"\}\]\]\}$/,
    );
  });

  test("subscribe the pause function to the alarm topic for those alarms' ALARM notifications only", () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: Match.stringLikeRegexp('^AlarmTopic') },
      FilterPolicyScope: 'MessageBody',
      FilterPolicy: {
        AlarmName: [
          { Ref: Match.stringLikeRegexp('^SiteConfigurationSetBounceRate') },
          { Ref: Match.stringLikeRegexp('^SiteConfigurationSetComplaintRate') },
        ],
        NewStateValue: ['ALARM'],
      },
    });
  });

  test('let SNS invoke the pause function from the alarm topic alone', () => {
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'sns.amazonaws.com',
      SourceArn: { Ref: Match.stringLikeRegexp('^AlarmTopic') },
    });
  });

  test('are built like every function: arm64, active tracing, a log group of their own encrypted with the key', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({ TracingConfig: { Mode: 'Active' }, Architectures: ['arm64'] });
    }
    const logGroups = Object.values(template.findResources('AWS::Logs::LogGroup'));
    expect(logGroups).toHaveLength(functions.length);
    for (const logGroup of logGroups) {
      expect(logGroup.Properties.KmsKeyId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Key/), 'Arn'] });
    }
  });
});
