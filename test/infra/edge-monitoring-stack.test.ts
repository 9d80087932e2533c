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

  test("it alarms on the availability objective's fast burn over CloudFront's requests and error rate, named after the product stack", () => {
    const alarms = alarmsOf(edge);
    expect(alarms).toHaveLength(1);
    expect(alarms[0].Properties).toMatchObject({ AlarmName: 'First100DaysSite-EdgeFastBurn', Threshold: 14.4 });
    const metrics = alarms[0].Properties.Metrics as {
      MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] } };
    }[];
    const read = metrics.flatMap(({ MetricStat }) => (MetricStat ? [MetricStat.Metric] : []));
    expect(read.map(({ MetricName }) => MetricName).sort()).toEqual(['5xxErrorRate', 'Requests']);
    // Read from the product stack's output in eu-west-1 (CloudFormation's Fn::GetStackOutput).
    for (const { Dimensions } of read) {
      expect(Dimensions.find((dimension) => dimension.Name === 'DistributionId')?.Value).toEqual({
        'Fn::GetStackOutput': expect.objectContaining({ StackName: 'First100DaysSite', Region: 'eu-west-1' }),
      });
    }
  });

  test('it notifies a topic of its own, subscribed to the alarm e-mail', () => {
    const [alarm] = alarmsOf(edge);
    const topicId = Object.keys(edge.findResources('AWS::SNS::Topic'))[0];
    expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    edge.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  test("the product stack's objectives read the routes' own 5xx instead of CloudFront's (it could watch no CloudFront metric in eu-west-1)", () => {
    const watched = JSON.stringify(alarmsOf(product).map(({ Properties }) => Properties.Metrics ?? []));
    expect(watched).not.toContain('AWS/CloudFront');
    expect(watched).toContain('"MetricName":"5xx"');
  });
});

test("with the product stack in us-east-1, its objectives read CloudFront's error rate and there is no edge-monitoring stack", () => {
  const { stack, edgeMonitoringStack } = createTestApp({
    env: { account, region: 'us-east-1' },
    context: { senderDomain: 'example.com' },
  });
  expect(edgeMonitoringStack).toBeUndefined();
  const watched = JSON.stringify(alarmsOf(Template.fromStack(stack)).map(({ Properties }) => Properties.Metrics ?? []));
  expect(watched).toContain('"MetricName":"5xxErrorRate"');
});
