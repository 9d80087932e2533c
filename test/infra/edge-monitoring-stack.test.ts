/**
 * The site's CloudFront 5xx alarm wherever the product stack is deployed: CloudFront's metrics
 * live in us-east-1 only, so a product stack in eu-west-1 gets the alarm in a us-east-1 stack of
 * its own, with its own topic.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { alarmsOf } from './support/alarms';
import { createTestApp } from './support/synth';

const account = '111111111111';

describe('with the product stack in eu-west-1', () => {
  const { stack, edgeMonitoringStack } = createTestApp({
    env: { account, region: 'eu-west-1' },
    context: { alarmEmail: 'ops@example.com', senderDomain: 'example.com' },
  });
  const edge = Template.fromStack(edgeMonitoringStack!);
  const product = Template.fromStack(stack);

  test('the edge-monitoring stack is in us-east-1, in the same account, deployed after the product stack', () => {
    expect(edgeMonitoringStack?.region).toBe('us-east-1');
    expect(edgeMonitoringStack?.account).toBe(account);
    expect(edgeMonitoringStack?.dependencies).toContain(stack);
  });

  test("it alarms on the product distribution's 5xx error rate, named after the product stack", () => {
    const alarms = alarmsOf(edge);
    expect(alarms).toHaveLength(1);
    expect(alarms[0].Properties).toMatchObject({
      AlarmName: 'First100DaysSite-CloudFront5xxRate',
      Namespace: 'AWS/CloudFront',
      MetricName: '5xxErrorRate',
      Threshold: 5,
    });
    expect(alarms[0].Condition).toBeUndefined();
    const dimensions = alarms[0].Properties.Dimensions as { Name: string; Value: unknown }[];
    // Read from the product stack's output in eu-west-1 (CloudFormation's Fn::GetStackOutput).
    expect(dimensions.find((dimension) => dimension.Name === 'DistributionId')?.Value).toEqual({
      'Fn::GetStackOutput': expect.objectContaining({ StackName: 'First100DaysSite', Region: 'eu-west-1' }),
    });
  });

  test('it notifies a topic of its own, subscribed to the alarm e-mail', () => {
    const [alarm] = alarmsOf(edge);
    const topicId = Object.keys(edge.findResources('AWS::SNS::Topic'))[0];
    expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    edge.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  test('the product stack itself has no CloudFront alarm (it could watch no metric in eu-west-1)', () => {
    expect(alarmsOf(product).filter((alarm) => alarm.Properties.AlarmName.endsWith('CloudFront5xxRate'))).toEqual([]);
  });
});

test('with the product stack in us-east-1, the alarm is in the product stack and there is no edge-monitoring stack', () => {
  const { stack, edgeMonitoringStack } = createTestApp({
    env: { account, region: 'us-east-1' },
    context: { senderDomain: 'example.com' },
  });
  expect(edgeMonitoringStack).toBeUndefined();
  const alarms = alarmsOf(Template.fromStack(stack)).filter((alarm) =>
    alarm.Properties.AlarmName.endsWith('CloudFront5xxRate'),
  );
  expect(alarms).toHaveLength(1);
  expect(alarms[0].Condition).toBeUndefined();
});
