import { Template, Match } from 'aws-cdk-lib/assertions';
import { Alarm, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SendingPause } from '../../../infra/constructs/sending-pause';
import { bareStack } from '../support/bare-stack';

const configurationSetArn = 'arn:aws:ses:eu-west-1:111122223333:configuration-set/product-set';

function pauseTemplate() {
  const stack = bareStack();
  const alarm = (name: string) =>
    new Alarm(stack, name, {
      alarmName: name,
      metric: new Metric({ namespace: 'AWS/SES', metricName: name }),
      threshold: 1,
      evaluationPeriods: 1,
    });
  const topic = new Topic(stack, 'AlarmTopic');
  new SendingPause(stack, 'SendingPause', {
    alarmTopic: topic,
    pauseOnAlarms: [alarm('Site-ConfigurationSetBounceRate'), alarm('Site-ConfigurationSetComplaintRate')],
    configurationSetName: 'product-set',
    configurationSetArn,
    encryptionKey: new Key(stack, 'Key'),
  });
  return Template.fromStack(stack);
}

/** The statements of the pause function's role, X-Ray's and the log group's left out. */
function pauseStatements(template: Template): unknown[] {
  const [policy] = Object.values(template.findResources('AWS::IAM::Policy')) as {
    Properties: { PolicyDocument: { Statement: { Action: string | string[] }[] } };
  }[];
  return policy.Properties.PolicyDocument.Statement.filter(({ Action }) =>
    [Action].flat().some((action) => action.startsWith('ses:')),
  );
}

describe('the sending pause', () => {
  test('may call only PutConfigurationSetSendingOptions, on the product configuration set only', () => {
    expect(pauseStatements(pauseTemplate())).toEqual([
      { Action: 'ses:PutConfigurationSetSendingOptions', Effect: 'Allow', Resource: configurationSetArn },
    ]);
  });

  test('is told the configuration set and the two alarms that pause it', () => {
    const [fn] = Object.values(pauseTemplate().findResources('AWS::Lambda::Function')) as {
      Properties: { Environment: { Variables: Record<string, unknown> } };
    }[];
    const variables = fn.Properties.Environment.Variables;
    expect(variables.CONFIGURATION_SET_NAME).toBe('product-set');
    // The alarms' names, joined with commas.
    expect(JSON.stringify(variables.PAUSE_ON_ALARMS)).toMatch(
      /^\{"Fn::Join":\["",\[\{"Ref":"SiteConfigurationSetBounceRate\w+"\},",",\{"Ref":"SiteConfigurationSetComplaintRate\w+"\}\]\]\}$/,
    );
  });

  test('is built like the product functions: arm64, active tracing', () => {
    pauseTemplate().hasResourceProperties('AWS::Lambda::Function', {
      TracingConfig: { Mode: 'Active' },
      Architectures: ['arm64'],
    });
  });

  test("subscribes to the alarm topic for those alarms' ALARM notifications only", () => {
    pauseTemplate().hasResourceProperties('AWS::SNS::Subscription', {
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

  test('may be invoked by SNS from the alarm topic alone, in this account', () => {
    pauseTemplate().hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'sns.amazonaws.com',
      SourceArn: { Ref: Match.stringLikeRegexp('^AlarmTopic') },
    });
  });

  test('logs to its own log group, encrypted with the stack key', () => {
    pauseTemplate().hasResourceProperties('AWS::Logs::LogGroup', {
      KmsKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Key'), 'Arn'] },
    });
  });
});
