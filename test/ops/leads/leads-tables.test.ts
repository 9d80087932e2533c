/** Where the tool reads: the environment's table names, or a stack's outputs (CloudFormation mocked). */

import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { StackOutputsError, tablesFromEnvironment, tablesFromStack } from '../../../ops/leads/leads-tables';

const cloudFormation = new CloudFormationClient({ region: 'eu-west-1' });
const cloudFormationMock = mockClient(cloudFormation);

afterEach(() => cloudFormationMock.reset());

test('without variables the tool reads the three tables by their fixed names', () => {
  expect(tablesFromEnvironment({})).toEqual({
    requests: 'cheat_sheet_requests',
    limitCounters: 'cheat_sheet_send_quotas',
    idempotency: 'cheat_sheet_idempotency',
  });
});

test('TABLE_NAME, SEND_QUOTA_TABLE_NAME and IDEMPOTENCY_TABLE_NAME name other tables', () => {
  expect(
    tablesFromEnvironment({
      TABLE_NAME: 'requests-copy',
      SEND_QUOTA_TABLE_NAME: 'quotas-copy',
      IDEMPOTENCY_TABLE_NAME: 'keys-copy',
    }),
  ).toEqual({ requests: 'requests-copy', limitCounters: 'quotas-copy', idempotency: 'keys-copy' });
});

test("--stack reads the idempotency table from the stack's IdempotencyTableName output", async () => {
  cloudFormationMock.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'First100DaysSite',
        CreationTime: new Date(),
        StackStatus: 'CREATE_COMPLETE',
        Outputs: [
          { OutputKey: 'TableName', OutputValue: 'deployed_requests' },
          { OutputKey: 'SendQuotaTableName', OutputValue: 'deployed_quotas' },
          { OutputKey: 'IdempotencyTableName', OutputValue: 'deployed_keys' },
        ],
      },
    ],
  });
  await expect(tablesFromStack(cloudFormation, 'First100DaysSite')).resolves.toMatchObject({
    idempotency: 'deployed_keys',
  });
});

test("--stack reads the tables from the stack's TableName and SendQuotaTableName outputs", async () => {
  cloudFormationMock.on(DescribeStacksCommand, { StackName: 'First100DaysSite' }).resolves({
    Stacks: [
      {
        StackName: 'First100DaysSite',
        CreationTime: new Date(),
        StackStatus: 'CREATE_COMPLETE',
        Outputs: [
          { OutputKey: 'TableName', OutputValue: 'deployed_requests' },
          { OutputKey: 'SendQuotaTableName', OutputValue: 'deployed_quotas' },
          { OutputKey: 'SiteUrl', OutputValue: 'https://d111111abcdef8.cloudfront.net' },
        ],
      },
    ],
  });
  await expect(tablesFromStack(cloudFormation, 'First100DaysSite')).resolves.toEqual({
    requests: 'deployed_requests',
    limitCounters: 'deployed_quotas',
  });
});

test('a stack without the table outputs is refused with a message naming them', async () => {
  cloudFormationMock.on(DescribeStacksCommand).resolves({
    Stacks: [{ StackName: 'Other', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE', Outputs: [] }],
  });
  await expect(tablesFromStack(cloudFormation, 'Other')).rejects.toThrow(/no TableName and SendQuotaTableName/);
});

test('a stack CloudFormation cannot find is reported with its name', async () => {
  cloudFormationMock.on(DescribeStacksCommand).rejects(new Error('Stack with id Missing does not exist'));
  const failure = tablesFromStack(cloudFormation, 'Missing');
  await expect(failure).rejects.toBeInstanceOf(StackOutputsError);
  await expect(failure).rejects.toThrow('Could not read the stack Missing: Stack with id Missing does not exist');
});
