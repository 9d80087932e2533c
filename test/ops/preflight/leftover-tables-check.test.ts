import { DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { DescribeKeyCommand, KMSClient, type KeyState } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { checkLeftoverTables } from '../../../ops/preflight/leftover-tables-check';

const dynamoDb = new DynamoDBClient({ region: 'eu-west-1' });
const dynamoDbMock = mockClient(dynamoDb);
const kms = new KMSClient({ region: 'eu-west-1' });
const kmsMock = mockClient(kms);
const clients = { dynamoDb, kms };
const firstDeploy = {
  region: 'eu-west-1',
  stackName: 'First100DaysSite',
  stack: { kind: 'absent' } as const,
  deployArguments: '-c senderEmail=cheatsheet@example.com',
};

const tablesExist = (...names: string[]) => {
  dynamoDbMock.on(DescribeTableCommand).rejects(new ResourceNotFoundException({ message: 'none', $metadata: {} }));
  for (const name of names)
    dynamoDbMock.on(DescribeTableCommand, { TableName: name }).resolves({ Table: { TableName: name } });
};

beforeEach(() => {
  dynamoDbMock.reset();
  kmsMock.reset();
});

describe('the leftover tables check', () => {
  test('passes a first deploy with neither table', async () => {
    tablesExist();
    expect((await checkLeftoverTables(clients, firstDeploy)).status).toBe('PASS');
  });

  test('fails when the tables outlived the stack, explaining so', async () => {
    tablesExist('cheat_sheet_requests', 'cheat_sheet_send_quotas');
    const result = await checkLeftoverTables(clients, firstDeploy);
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('cheat_sheet_requests and cheat_sheet_send_quotas already exist');
    expect(result.detail).toContain('while the stack First100DaysSite does not (they are retained)');
  });

  test('fails on a leftover idempotency table too: it is retained like the others', async () => {
    tablesExist('cheat_sheet_idempotency');
    const result = await checkLeftoverTables(clients, firstDeploy);
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('cheat_sheet_idempotency already exist');
  });

  test('gives the deploy command that adopts them, with the same -c values', async () => {
    tablesExist('cheat_sheet_send_quotas');
    expect((await checkLeftoverTables(clients, firstDeploy)).fix).toContain(
      'npx cdk deploy --import-existing-resources -c senderEmail=cheatsheet@example.com',
    );
  });

  const key = 'arn:aws:kms:eu-west-1:111111111111:key/0a1b2c3d-leads';
  const tablesUnderKey = (items: Record<string, number>, keyState: KeyState | Error) => {
    dynamoDbMock.on(DescribeTableCommand).rejects(new ResourceNotFoundException({ message: 'none', $metadata: {} }));
    for (const [name, count] of Object.entries(items))
      dynamoDbMock.on(DescribeTableCommand, { TableName: name }).resolves({
        Table: { TableName: name, ItemCount: count, SSEDescription: { SSEType: 'KMS', KMSMasterKeyArn: key } },
      });
    if (keyState instanceof Error) kmsMock.on(DescribeKeyCommand).rejects(keyState);
    else kmsMock.on(DescribeKeyCommand, { KeyId: key }).resolves({ KeyMetadata: { KeyId: key, KeyState: keyState } });
  };

  test('prints the delete only for tables a rolled-back create left (every one empty, its key pending deletion), for a clean retry', async () => {
    tablesUnderKey({ cheat_sheet_requests: 0, cheat_sheet_idempotency: 0 }, 'PendingDeletion');
    const result = await checkLeftoverTables(clients, firstDeploy);
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain(`key ${key} PendingDeletion`);
    expect(result.fix).toContain(
      'aws dynamodb update-table --region eu-west-1 --table-name cheat_sheet_requests --no-deletion-protection-enabled && aws dynamodb delete-table --region eu-west-1 --table-name cheat_sheet_requests',
    );
    expect(result.fix).toContain('--table-name cheat_sheet_idempotency');
    expect(result.fix).toContain('then npx cdk deploy -c senderEmail=cheatsheet@example.com');
    expect(result.fix).not.toContain('--import-existing-resources');
  });

  test('never prints a delete for a table holding items, even under a key pending deletion: it cancels the deletion and adopts', async () => {
    tablesUnderKey({ cheat_sheet_requests: 3, cheat_sheet_idempotency: 0 }, 'PendingDeletion');
    const result = await checkLeftoverTables(clients, firstDeploy);
    expect(result.detail).toContain('cheat_sheet_requests 3 items');
    expect(result.fix).not.toMatch(/delete-table|no-deletion-protection/);
    expect(result.fix).toBe(
      `aws kms cancel-key-deletion --region eu-west-1 --key-id ${key} && aws kms enable-key --region eu-west-1 --key-id ${key} && npx cdk deploy --import-existing-resources -c senderEmail=cheatsheet@example.com (adopts them into the stack, data kept; the key stops being deleted first).`,
    );
  });

  test.each([
    ['enabled (a deliberate cdk destroy kept it)', 'Enabled' as const],
    ['unreadable', new Error('AccessDeniedException')],
  ])(
    'adopts empty tables whose key is %s: ItemCount lags by hours, so 0 alone proves nothing',
    async (_what, state) => {
      tablesUnderKey({ cheat_sheet_requests: 0 }, state);
      const result = await checkLeftoverTables(clients, firstDeploy);
      expect(result.fix).toBe(
        'npx cdk deploy --import-existing-resources -c senderEmail=cheatsheet@example.com (adopts them into the stack, data kept).',
      );
    },
  );

  test('does not look for the tables once the stack exists', async () => {
    const result = await checkLeftoverTables(clients, {
      ...firstDeploy,
      stack: { kind: 'exists', status: 'UPDATE_COMPLETE' },
    });
    expect(result.status).toBe('PASS');
    expect(dynamoDbMock.calls()).toHaveLength(0);
  });
});
