import { postJson } from '../support/post-json';
/**
 * The local stack's DynamoDB: the requests table and, beside it, the daily cap's own table, as
 * the shared schema names them. A fresh stack, so "exactly one item" means exactly one.
 */

import { localDailyCapId } from '../support/address-key';
import { DescribeTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalStack, type LocalStack } from '../../local/local-stack';
import { cheatSheetPdfForTests, stackStartTimeoutMs } from '../support/cheat-sheet-pdf';

let stack: LocalStack;
let dynamoDb: DynamoDBDocumentClient;

// Starting the emulators and building the PDF (its fonts subset) takes seconds on a busy machine.
beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true'; // the functions' metrics are tested in test/lambdas
  stack = await startLocalStack({ siteDir: null, cheatSheetPdf: await cheatSheetPdfForTests() });
  dynamoDb = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.endpoints.dynamodb,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}, stackStartTimeoutMs);
afterAll(async () => {
  dynamoDb?.destroy();
  await stack?.stop();
});

async function scan(name: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await dynamoDb.send(new ScanCommand({ TableName: name }));
  return Items;
}

describe('the local DynamoDB', () => {
  test('has exactly the four tables, named as in the shared schema, and gives the handlers the two the contract names', async () => {
    const { TableNames } = await dynamoDb.send(new ListTablesCommand({}));

    expect(TableNames).toEqual([
      'cheat_sheet_funnel_visitors',
      'cheat_sheet_idempotency',
      'cheat_sheet_requests',
      'cheat_sheet_send_quotas',
    ]);
    // Not set: the functions' default is the local table's name, so only the contract's variables are needed.
    expect(process.env.IDEMPOTENCY_TABLE_NAME).toBeUndefined();
    expect([stack.tableName, stack.limitCountersTableName]).toEqual([
      'cheat_sheet_requests',
      'cheat_sheet_send_quotas',
    ]);
    expect([process.env.TABLE_NAME, process.env.SEND_QUOTA_TABLE_NAME]).toEqual([
      'cheat_sheet_requests',
      'cheat_sheet_send_quotas',
    ]);
  });

  test("gives the visit function the funnel visitors' table, where the day's salt lives", () => {
    expect([stack.funnelVisitorsTableName, process.env.FUNNEL_VISITORS_TABLE_NAME]).toEqual([
      'cheat_sheet_funnel_visitors',
      'cheat_sheet_funnel_visitors',
    ]);
  });

  test('keys the limit counters table by id alone, with no index', async () => {
    const { Table } = await dynamoDb.send(new DescribeTableCommand({ TableName: 'cheat_sheet_send_quotas' }));

    expect(Table?.KeySchema).toEqual([{ AttributeName: 'id', KeyType: 'HASH' }]);
    expect(Table?.AttributeDefinitions).toEqual([{ AttributeName: 'id', AttributeType: 'S' }]);
    expect(Table?.GlobalSecondaryIndexes).toBeUndefined();
  });

  test("after a save and a send, holds the one request, flagged, in the requests table, and the address's, the client's and the budget's counters in the limit counters table", async () => {
    const visitor = { name: 'Ada Tables', email: 'ada.tables@example.com' };
    const saved = await postJson(new URL('/api/cheat-sheet-requests', stack.urls.site), visitor);
    const { id } = (await saved.json()) as { id: string };

    const sent = await postJson(new URL('/api/send-cheat-sheet', stack.urls.site), visitor);

    expect([saved.status, sent.status]).toEqual([201, 200]);
    const requests = await scan('cheat_sheet_requests');
    expect(requests).toEqual([
      {
        id,
        ...visitor,
        cheat_sheet_sent: true,
        requested_at: expect.any(String),
        sent_at: expect.any(String),
        // The delivery the send recorded: claimed with a token, then accepted by SES.
        delivery_status: 'sent',
        status_at: expect.any(String),
        sending_at: expect.any(String),
        send_token: expect.any(String),
        ses_message_id: expect.any(String),
      },
    ]);
    const sentAt = Date.parse(requests[0]!.sent_at as string);
    const addressDailyCapItems = await scan('cheat_sheet_send_quotas');
    const [counter, ...others] = addressDailyCapItems.filter((item) => 'recent_sends' in item);
    expect(others).toEqual([]);
    // One save claimed in the client's and the network's save buckets, one send in the client's, the
    // network's and the budget's current buckets; the buckets before are sealed.
    const sends = addressDailyCapItems
      .filter((item) => 'sends' in item)
      .map((item) => [String(item.id).split('#')[0], item.sends]);
    expect(sends.sort()).toEqual([
      ['budget', 1],
      ['client', 1],
      ['network', 1],
      ['save-client', 1],
      ['save-network', 1],
    ]);
    expect(counter).toEqual({
      id: localDailyCapId(visitor.email),
      recent_sends: [expect.any(String)],
      claims: { [Object.keys((counter!.claims ?? {}) as object)[0] ?? 'none']: (counter!.recent_sends as string[])[0] },
      version: 1,
      expires_at: expect.any(Number),
    });
    // The claim is taken just before SES is called, so a moment before the request is flagged.
    const claimedAt = Date.parse((counter!.recent_sends as string[])[0]!);
    expect(claimedAt).toBeLessThanOrEqual(sentAt);
    expect(counter!.expires_at).toBe(Math.ceil((claimedAt + 24 * 60 * 60 * 1000) / 1000));
  });
});
