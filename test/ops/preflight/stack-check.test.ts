import { CloudFormationClient, DescribeStacksCommand, type StackStatus } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { checkStack, isFirstDeploy, readStackState } from '../../../ops/preflight/stack-check';

const cloudFormation = new CloudFormationClient({ region: 'eu-west-1' });
const cloudFormationMock = mockClient(cloudFormation);

beforeEach(() => cloudFormationMock.reset());

const stackIn = (status: StackStatus) =>
  cloudFormationMock.on(DescribeStacksCommand, { StackName: 'First100DaysSite' }).resolves({
    Stacks: [{ StackName: 'First100DaysSite', StackStatus: status, CreationTime: new Date() }],
  });

describe('the stack state', () => {
  test('is absent when CloudFormation says the stack does not exist', async () => {
    cloudFormationMock
      .on(DescribeStacksCommand)
      .rejects(Object.assign(new Error('Stack with id First100DaysSite does not exist'), { name: 'ValidationError' }));
    expect(await readStackState(cloudFormation, 'First100DaysSite')).toEqual({ kind: 'absent' });
  });

  test('is not created after a failed first create (ROLLBACK_COMPLETE)', async () => {
    stackIn('ROLLBACK_COMPLETE');
    const state = await readStackState(cloudFormation, 'First100DaysSite');
    expect(isFirstDeploy(state)).toBe(true);
  });

  test('exists once created', async () => {
    stackIn('UPDATE_COMPLETE');
    expect(await readStackState(cloudFormation, 'First100DaysSite')).toEqual({
      kind: 'exists',
      status: 'UPDATE_COMPLETE',
    });
  });

  test('is unknown when CloudFormation cannot be read', async () => {
    cloudFormationMock.on(DescribeStacksCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDenied' }));
    expect((await readStackState(cloudFormation, 'First100DaysSite')).kind).toBe('unknown');
  });
});

describe('the stack check', () => {
  test('passes for a first deploy', () => {
    expect(checkStack('First100DaysSite', { kind: 'absent' })).toMatchObject({
      status: 'PASS',
      detail: expect.stringContaining('creates it'),
    });
  });

  test('fails while another operation runs on the stack', () => {
    expect(checkStack('First100DaysSite', { kind: 'exists', status: 'UPDATE_IN_PROGRESS' }).status).toBe('FAIL');
  });

  test('fails on a stack stuck in UPDATE_ROLLBACK_FAILED, giving the command that unsticks it', () => {
    const result = checkStack('First100DaysSite', { kind: 'exists', status: 'UPDATE_ROLLBACK_FAILED' });
    expect(result.fix).toContain('aws cloudformation continue-update-rollback --stack-name First100DaysSite');
  });

  test('passes for a stack the deploy updates', () => {
    expect(checkStack('First100DaysSite', { kind: 'exists', status: 'UPDATE_COMPLETE' }).status).toBe('PASS');
  });
});
