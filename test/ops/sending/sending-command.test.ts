/**
 * `npm run sending` with CloudFormation and SESv2 mocked (aws-sdk-client-mock): the library in
 * this process, and the script spawned once for a usage error (which calls no AWS API).
 */

import {
  CloudFormationClient,
  ListStackResourcesCommand,
  type StackResourceSummary,
} from '@aws-sdk/client-cloudformation';
import {
  GetAccountCommand,
  GetConfigurationSetCommand,
  NotFoundException,
  PutConfigurationSetSendingOptionsCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { runSendingCommand, usage } from '../../../ops/sending/sending-command';
import { spawnScript } from '../../support/spawned-script';

const cloudFormation = new CloudFormationClient({ region: 'us-east-1' });
const ses = new SESv2Client({ region: 'us-east-1' });
const cloudFormationMock = mockClient(cloudFormation);
const sesMock = mockClient(ses);

const resource = (ResourceType: string, PhysicalResourceId: string): StackResourceSummary => ({
  ResourceType,
  PhysicalResourceId,
  LogicalResourceId: PhysicalResourceId.replace(/\W/g, ''),
  ResourceStatus: 'CREATE_COMPLETE',
  LastUpdatedTimestamp: new Date(),
});

/** The sending state SES holds, changed by PutConfigurationSetSendingOptions as SES would. */
let configurationSetSending: boolean;
let accountSending: boolean;

beforeEach(() => {
  cloudFormationMock.reset();
  sesMock.reset();
  configurationSetSending = true;
  accountSending = true;
  cloudFormationMock
    .on(ListStackResourcesCommand, { StackName: 'First100DaysSite' })
    .resolves({
      StackResourceSummaries: [
        resource('AWS::DynamoDB::Table', 'cheat_sheet_requests'),
        resource('AWS::SES::EmailIdentity', 'cheatsheet@example.com'),
      ],
      NextToken: 'page-2',
    })
    .on(ListStackResourcesCommand, { StackName: 'First100DaysSite', NextToken: 'page-2' })
    .resolves({ StackResourceSummaries: [resource('AWS::SES::ConfigurationSet', 'ConfigurationSet3DE2A6E1-abc')] });
  sesMock
    .on(GetConfigurationSetCommand, { ConfigurationSetName: 'ConfigurationSet3DE2A6E1-abc' })
    .callsFake(async () => ({ SendingOptions: { SendingEnabled: configurationSetSending } }))
    .on(GetAccountCommand)
    .callsFake(async () => ({ SendingEnabled: accountSending }))
    .on(PutConfigurationSetSendingOptionsCommand, { ConfigurationSetName: 'ConfigurationSet3DE2A6E1-abc' })
    .callsFake(async (input: { SendingEnabled?: boolean }) => {
      configurationSetSending = input.SendingEnabled === true;
      return {};
    });
});

afterAll(() => {
  cloudFormationMock.restore();
  sesMock.restore();
});

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runSendingCommand(args, {
    stdout: (text) => (stdout += `${text}\n`),
    stderr: (text) => (stderr += `${text}\n`),
    clients: () => ({ ses, cloudFormation }),
  });
  return { code, stdout, stderr };
}

const putCalls = () =>
  sesMock.commandCalls(PutConfigurationSetSendingOptionsCommand).map((call) => call.args[0].input.SendingEnabled);

test("status shows the sending state of the stack's configuration set and of the account, changing nothing", async () => {
  const { code, stdout } = await run(['status', '--stack', 'First100DaysSite']);

  expect(code).toBe(0);
  expect(stdout).toBe(
    'Configuration set ConfigurationSet3DE2A6E1-abc: sending enabled.\nAccount in this region: sending enabled.\n',
  );
  expect(putCalls()).toEqual([]);
});

test('pause turns sending off for the configuration set and says how to resume', async () => {
  const { code, stdout } = await run(['pause', '--stack', 'First100DaysSite']);

  expect(code).toBe(0);
  expect(putCalls()).toEqual([false]);
  expect(stdout).toContain('Paused sending for First100DaysSite.');
  expect(stdout).toContain('Configuration set ConfigurationSet3DE2A6E1-abc: sending paused.');
  expect(stdout).toContain('Resume with: npm run sending -- resume --stack First100DaysSite');
});

test('resume turns sending back on for the configuration set', async () => {
  configurationSetSending = false;

  const { code, stdout } = await run(['resume', '--stack', 'First100DaysSite']);

  expect(code).toBe(0);
  expect(putCalls()).toEqual([true]);
  expect(stdout).toContain('Resumed sending for First100DaysSite.');
  expect(stdout).toContain('Configuration set ConfigurationSet3DE2A6E1-abc: sending enabled.');
});

test('status says so when SES has paused the whole account', async () => {
  accountSending = false;

  const { stdout } = await run(['status', '--stack', 'First100DaysSite']);

  expect(stdout).toContain('Account in this region: sending paused by SES');
});

test('status reads a configuration set without sending options as enabled, SES’s default', async () => {
  sesMock.on(GetConfigurationSetCommand).resolves({});

  const { stdout } = await run(['status', '--stack', 'First100DaysSite']);

  expect(stdout).toContain('sending enabled.');
});

test('fails with exit 1 and says why for a stack without a configuration set', async () => {
  cloudFormationMock
    .on(ListStackResourcesCommand, { StackName: 'OtherStack' })
    .resolves({ StackResourceSummaries: [resource('AWS::S3::Bucket', 'bucket')] });

  const { code, stderr } = await run(['pause', '--stack', 'OtherStack']);

  expect(code).toBe(1);
  expect(stderr).toBe("Failed: The stack OtherStack has no SES configuration set: is it this product's stack?\n");
  expect(putCalls()).toEqual([]);
});

test('fails with exit 1 and the reason when the stack cannot be read', async () => {
  cloudFormationMock
    .on(ListStackResourcesCommand, { StackName: 'Missing' })
    .rejects(new Error('Stack with id Missing does not exist'));

  const { code, stderr } = await run(['status', '--stack', 'Missing']);

  expect(code).toBe(1);
  expect(stderr).toBe('Failed: Could not read the stack Missing: Stack with id Missing does not exist\n');
});

test('fails with exit 1 and the reason when SES refuses', async () => {
  sesMock
    .on(GetConfigurationSetCommand)
    .rejects(new NotFoundException({ message: 'Configuration set does not exist', $metadata: {} }));

  const { code, stderr } = await run(['status', '--stack', 'First100DaysSite']);

  expect(code).toBe(1);
  expect(stderr).toBe('Failed: Configuration set does not exist\n');
});

test.each([
  [[], usage],
  [['stop', '--stack', 'First100DaysSite'], 'Unknown command "stop".'],
  [['pause'], '--stack NAME is required'],
  [['pause', '--stack', ' '], '--stack NAME is required'],
  [['pause', 'now', '--stack', 'First100DaysSite'], 'pause takes no other argument than --stack NAME.'],
  [['status', '--stack', 'First100DaysSite', '--yes'], "Unknown option '--yes'"],
])('%p is a usage error: exit 2, a clear line and the usage, and no AWS call', async (args, message) => {
  const { code, stderr } = await run(args);

  expect(code).toBe(2);
  expect(stderr).toContain(message);
  expect(stderr).toContain(usage);
  expect(cloudFormationMock.calls()).toHaveLength(0);
  expect(sesMock.calls()).toHaveLength(0);
});

test('the script exits 2 with the usage when spawned without a command', async () => {
  const script = spawnScript('scripts/sending.ts', {});

  expect(await script.exited).toBe(2);
  expect(script.stderr()).toContain(usage);
}, 30_000);
