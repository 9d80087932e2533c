/** Reads what the product left in the local DynamoDB, through the real SDK. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../../../core/data/tables';

export async function requestsFor(dynamodbEndpoint: string, email: string): Promise<Record<string, unknown>[]> {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: dynamodbEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  try {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: tableName }));
    return Items.filter((item) => item.email === email);
  } finally {
    client.destroy();
  }
}
