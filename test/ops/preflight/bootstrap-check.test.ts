import { GetParameterCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { bootstrapRegions, checkBootstrap } from '../../../ops/preflight/bootstrap-check';

const ssm = new SSMClient({ region: 'eu-west-1' });
const ssmMock = mockClient(ssm);
const input = { account: '123456789012', region: 'eu-west-1', qualifier: 'hnb659fds' };

beforeEach(() => ssmMock.reset());

describe('the environments to bootstrap', () => {
  test("are the stack's region alone when it is not fixed (no stage, no waf)", () => {
    expect(bootstrapRegions('eu-west-1', false)).toEqual(['eu-west-1']);
  });

  test('add us-east-1 when the region is fixed (a stage, or waf) and is another: its edge stacks are there', () => {
    expect(bootstrapRegions('eu-west-1', true)).toEqual(['eu-west-1', 'us-east-1']);
  });

  test('are us-east-1 once with waf in us-east-1', () => {
    expect(bootstrapRegions('us-east-1', true)).toEqual(['us-east-1']);
  });
});

describe('the bootstrap check', () => {
  test("passes with the bootstrap's version parameter", async () => {
    ssmMock
      .on(GetParameterCommand, { Name: '/cdk-bootstrap/hnb659fds/version' })
      .resolves({ Parameter: { Value: '30' } });
    expect(await checkBootstrap(ssm, input)).toMatchObject({
      status: 'PASS',
      detail: 'bootstrapped (version 30)',
    });
  });

  test('fails without the parameter, naming the region and the bootstrap command', async () => {
    ssmMock.on(GetParameterCommand).rejects(new ParameterNotFound({ message: 'not found', $metadata: {} }));
    const result = await checkBootstrap(ssm, { ...input, region: 'us-east-1' });
    expect(result).toMatchObject({ name: 'bootstrap us-east-1', status: 'FAIL' });
    expect(result.fix).toBe('npx cdk bootstrap aws://123456789012/us-east-1');
  });

  test('fails on a bootstrap older than version 6', async () => {
    ssmMock.on(GetParameterCommand).resolves({ Parameter: { Value: '4' } });
    expect((await checkBootstrap(ssm, input)).status).toBe('FAIL');
  });

  test("reads the parameter of cdk.json's qualifier", async () => {
    ssmMock
      .on(GetParameterCommand, { Name: '/cdk-bootstrap/custom123/version' })
      .resolves({ Parameter: { Value: '30' } });
    expect((await checkBootstrap(ssm, { ...input, qualifier: 'custom123' })).status).toBe('PASS');
  });

  test('warns when the parameter cannot be read', async () => {
    ssmMock.on(GetParameterCommand).rejects(Object.assign(new Error('no'), { name: 'AccessDeniedException' }));
    expect(await checkBootstrap(ssm, input)).toMatchObject({
      status: 'WARN',
      detail: expect.stringContaining('AccessDeniedException'),
    });
  });
});
