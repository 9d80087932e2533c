import { Stack } from 'aws-cdk-lib';
import { CfnTopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { logicalIdBeside } from '../../../../infra/constructs/monitoring/stable-logical-id';
import { alarmStack } from '../../support/bare-stack';

describe('a logical id beside a family', () => {
  test('is the id CDK gives the same resource created beside the family instead of inside it', () => {
    const { stack } = alarmStack();
    const monitoring = new Construct(stack, 'Monitoring');
    const family = new Construct(monitoring, 'FunctionAlarms');
    const beside = new Construct(monitoring, 'SaveRequestFunctionThrottles');
    const resource = new CfnTopic(beside, 'Resource');
    expect(logicalIdBeside(family, ['SaveRequestFunctionThrottles', 'Resource'])).toBe(
      Stack.of(resource).getLogicalId(resource),
    );
  });

  test('is the plain id for a family directly in the stack with a one-part path', () => {
    const { stack } = alarmStack();
    const family = new Construct(stack, 'Family');
    const resource = new CfnTopic(stack, 'InCloudFrontMetricsRegion');
    expect(logicalIdBeside(family, ['InCloudFrontMetricsRegion'])).toBe(stack.getLogicalId(resource));
  });
});
