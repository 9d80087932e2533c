/**
 * What the roles that work the DeadLetters tickets may do (DeadLetterAccess): read and delete the
 * dead-letter queues' messages, send a hand-off back to its queue, invoke the event functions; on
 * those resources alone.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { Role, AccountRootPrincipal } from 'aws-cdk-lib/aws-iam';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { DeadLetterAccess } from '../../../infra/constructs/dead-letter-access';
import { bareStack } from '../support/bare-stack';

const stack = bareStack();
const operator = new Role(stack, 'Operator', { assumedBy: new AccountRootPrincipal() });
const deadLetters = new Queue(stack, 'DeadLetters');
const handoff = new Queue(stack, 'Handoff');
const eventFunction = new LambdaFunction(stack, 'UnsentCheck', {
  runtime: Runtime.NODEJS_22_X,
  handler: 'index.handler',
  code: Code.fromInline('exports.handler = async () => {};'),
});
new DeadLetterAccess(stack, 'DeadLetterAccess', {
  roles: [operator],
  deadLetterQueues: [deadLetters],
  redriveQueues: [handoff],
  eventFunctions: [eventFunction],
});
const statements = Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy')).flatMap(
  (policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
);
const on = (logicalId: string) =>
  statements
    .filter(({ Resource }) => JSON.stringify(Resource).includes(`"${logicalId}`))
    .flatMap(({ Action }) => [Action].flat())
    .sort();
const idOf = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as never);

describe('DeadLetterAccess', () => {
  test('lets the role read and delete the dead-letter queue messages (list, and redrive once redone)', () => {
    expect(on(idOf(deadLetters))).toEqual(
      expect.arrayContaining(['sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:ReceiveMessage']),
    );
    expect(on(idOf(deadLetters))).not.toContain('sqs:SendMessage');
  });

  test('lets it send to the redrive queue only, and invoke the event functions only', () => {
    expect(on(idOf(handoff))).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    expect(on(idOf(handoff))).not.toContain('sqs:ReceiveMessage');
    expect(on(idOf(eventFunction))).toEqual(['lambda:InvokeFunction']);
    const invoke = statements.filter(({ Action }) => [Action].flat().includes('lambda:InvokeFunction'));
    expect(JSON.stringify(invoke.map(({ Resource }) => Resource))).not.toContain(':*');
  });
});
