import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { FunctionAlarms } from '../../../../infra/constructs/monitoring/function-alarms';
import { alarmNamed } from '../../support/alarms';
import { alarmStack } from '../../support/bare-stack';

function functionAlarms() {
  const { stack, alarmAction, topic } = alarmStack();
  const fn = new LambdaFunction(stack, 'SaveRequestFunction', {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('exports.handler = async () => ({});'),
  });
  new FunctionAlarms(stack, 'FunctionAlarms', { alarmAction, functions: [{ function: fn, name: 'save-request' }] });
  return {
    template: Template.fromStack(stack),
    functionId: stack.getLogicalId(fn.node.defaultChild as never),
    topicId: stack.getLogicalId(topic.node.defaultChild as never),
  };
}

describe('the function alarms', () => {
  test('fire on the first throttle of a function in five minutes', () => {
    const { template, functionId } = functionAlarms();
    expect(alarmNamed(template, 'First100DaysSite-SaveRequestFunctionThrottles').Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Throttles',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      TreatMissingData: 'notBreaching',
    });
  });

  test('fire on the first error of a function in five minutes, naming its service', () => {
    const { template } = functionAlarms();
    const alarm = alarmNamed(template, 'First100DaysSite-SaveRequestFunctionErrors');
    expect(alarm.Properties).toMatchObject({ MetricName: 'Errors', Threshold: 1, Period: 300 });
    expect(alarm.Properties.AlarmDescription).toMatch(
      /^Severity: page\. save-request crashed, timed out or ran out of memory/,
    );
  });

  test('notify the alarm topic when they fire and when they are OK again', () => {
    const { template, topicId } = functionAlarms();
    const alarm = alarmNamed(template, 'First100DaysSite-SaveRequestFunctionThrottles');
    expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId }]);
  });
});
