import { DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { checkLeftoverTables } from '../../../ops/preflight/leftover-tables-check';

const dynamoDb = new DynamoDBClient({ region: 'eu-west-1' });
const dynamoDbMock = mockClient(dynamoDb);
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

beforeEach(() => dynamoDbMock.reset());

describe('the leftover tables check', () => {
  test('passes a first deploy with neither table', async () => {
    tablesExist();
    expect((await checkLeftoverTables(dynamoDb, firstDeploy)).status).toBe('PASS');
  });

  test('fails when a failed first deploy left the tables, explaining so', async () => {
    tablesExist('cheat_sheet_requests', 'cheat_sheet_send_quotas');
    const result = await checkLeftoverTables(dynamoDb, firstDeploy);
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('cheat_sheet_requests and cheat_sheet_send_quotas already exist');
    expect(result.detail).toContain('a failed first deploy left them');
  });

  test('fails on a leftover idempotency table too: it is retained like the others', async () => {
    tablesExist('cheat_sheet_idempotency');
    const result = await checkLeftoverTables(dynamoDb, firstDeploy);
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain('cheat_sheet_idempotency already exist');
  });

  test('gives the deploy command that adopts them, with the same -c values', async () => {
    tablesExist('cheat_sheet_send_quotas');
    expect((await checkLeftoverTables(dynamoDb, firstDeploy)).fix).toContain(
      'npx cdk deploy --import-existing-resources -c senderEmail=cheatsheet@example.com',
    );
  });

  test("names the orphaned leads' key of tables a rolled-back create left, and the commands that clear them for a clean retry", async () => {
    const key = 'arn:aws:kms:eu-west-1:111111111111:key/0a1b2c3d-orphaned';
    dynamoDbMock.on(DescribeTableCommand).rejects(new ResourceNotFoundException({ message: 'none', $metadata: {} }));
    for (const name of ['cheat_sheet_requests', 'cheat_sheet_idempotency'])
      dynamoDbMock
        .on(DescribeTableCommand, { TableName: name })
        .resolves({ Table: { TableName: name, SSEDescription: { SSEType: 'KMS', KMSMasterKeyArn: key } } });
    const result = await checkLeftoverTables(dynamoDb, firstDeploy);
    expect(result.status).toBe('FAIL');
    expect(result.detail).toContain(`orphaned KMS key ${key}`);
    expect(result.fix).toContain(
      'aws dynamodb update-table --region eu-west-1 --table-name cheat_sheet_requests --no-deletion-protection-enabled && aws dynamodb delete-table --region eu-west-1 --table-name cheat_sheet_requests',
    );
    expect(result.fix).toContain('--table-name cheat_sheet_idempotency');
    expect(result.fix).toContain('then npx cdk deploy -c senderEmail=cheatsheet@example.com');
    expect(result.fix).not.toContain('--import-existing-resources');
  });

  test('does not look for the tables once the stack exists', async () => {
    const result = await checkLeftoverTables(dynamoDb, {
      ...firstDeploy,
      stack: { kind: 'exists', status: 'UPDATE_COMPLETE' },
    });
    expect(result.status).toBe('PASS');
    expect(dynamoDbMock.calls()).toHaveLength(0);
  });
});
