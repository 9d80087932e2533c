import { Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { AlarmTopic } from '../../../../infra/constructs/monitoring/alarm-topic';
import { alarmStack } from '../../support/bare-stack';

type Statement = { Effect: string; Principal?: unknown; Action?: unknown; Condition?: unknown };

describe('the alarm topic', () => {
  test('is encrypted with the key it is given, which CloudWatch may use, and creates no key of its own', () => {
    const { stack } = alarmStack();
    const key = new Key(stack, 'SharedKey', { enableKeyRotation: true });
    new AlarmTopic(stack, 'AlarmTopic', { encryptionKey: key });
    const template = Template.fromStack(stack);
    const keyId = stack.getLogicalId(key.node.defaultChild as never);
    template.resourceCountIs('AWS::KMS::Key', 1);
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    const statements = (
      template.toJSON() as { Resources: Record<string, { Properties: { KeyPolicy: { Statement: Statement[] } } }> }
    ).Resources[keyId].Properties.KeyPolicy.Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      }),
    );
  });

  test('makes its own rotated key when given none', () => {
    const { stack } = alarmStack();
    new AlarmTopic(stack, 'AlarmTopic');
    Template.fromStack(stack).hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  test("refuses plain HTTP and lets only this account's CloudWatch alarms publish", () => {
    const { stack } = alarmStack();
    new AlarmTopic(stack, 'AlarmTopic');
    const policy = Object.values(Template.fromStack(stack).findResources('AWS::SNS::TopicPolicy'))[0] as {
      Properties: { PolicyDocument: { Statement: Statement[] } };
    };
    const statements = policy.Properties.PolicyDocument.Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Condition: expect.objectContaining({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } }),
      }),
    );
  });

  test('subscribes alarmEmail by e-mail, and nobody without it', () => {
    const { stack } = alarmStack();
    new AlarmTopic(stack, 'Quiet');
    new AlarmTopic(stack, 'Mailed', { alarmEmail: 'ops@example.com' });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::SNS::Subscription', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });
});
