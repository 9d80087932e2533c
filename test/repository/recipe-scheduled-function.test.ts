/**
 * The scheduled function recipe holds (docs/architecture.md, 'How to add a scheduled or event
 * function'): an hourly heartbeat, added to a copy of the catalogue of functions and nowhere
 * else, is a function of the synthesized stack with its schedule, its log group's output, its
 * alarms and its graph.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { withDefaults } from '../../core/api/catalogue/function-entry';
import { functionList } from '../../core/api/catalogue/functions';
import { alarmsOf } from '../infra/support/alarms';
import { resourceByPrefix, synthTemplate } from '../infra/support/synth';
import { heartbeatFunction } from '../support/recipes/heartbeat-function';

const catalogue = [...functionList, withDefaults('heartbeat', heartbeatFunction)];

describe('a scheduled function added to a copy of the catalogue, and nowhere else', () => {
  const template = synthTemplate({ functions: catalogue });
  const fn = resourceByPrefix(template, 'AWS::Lambda::Function', 'EventFunctionsHeartbeatHeartbeatFunction');

  test('is a function of the stack, sized by the defaults: 256 MB, and 3 s since it calls no AWS service', () => {
    expect(fn.resource.Properties).toMatchObject({
      MemorySize: 256,
      Timeout: 3,
      Architectures: ['arm64'],
      Description: heartbeatFunction.description,
    });
  });

  test('is invoked by its schedule, without retries', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 hour)',
      Description: heartbeatFunction.trigger.description,
      Targets: [
        Match.objectLike({ Arn: { 'Fn::GetAtt': [fn.logicalId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } }),
      ],
    });
  });

  test('has no grant but its logs, its tracing and the dead-letter queue its failed runs go to', () => {
    const policy = resourceByPrefix(template, 'AWS::IAM::Policy', 'EventFunctionsHeartbeatHeartbeatRole').resource;
    const actions = (
      policy.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }
    ).Statement.flatMap((statement) => [statement.Action].flat());
    expect(actions.sort()).toEqual(
      [
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'sqs:SendMessage',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ].sort(),
    );
  });

  test("has its log group's output and no alarm of its own: its failed runs reach the dead letters' ticket", () => {
    template.hasOutput('HeartbeatLogGroupName', {});
    expect(JSON.stringify(alarmsOf(template))).not.toContain(fn.logicalId);
  });
});
