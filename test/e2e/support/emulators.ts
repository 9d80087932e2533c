/** Reads what the product left in the local emulators, through the real SDK and the SES store. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../../../core/data/tables';

export interface CapturedEmail {
  readonly to: string[];
  readonly subject: string;
  readonly html?: string;
  readonly text?: string;
  readonly attachments: { readonly filename: string; readonly contentType: string; readonly content: Buffer }[];
}

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

interface StoredEmail {
  destination?: { to?: string[] };
  subject?: string;
  body?: { html?: string; text?: string };
  attachments?: { filename?: string; contentType?: string; content?: string }[];
}

/** aws-ses-v2-local's store: every e-mail it captured, attachments as base64. */
export async function emailsTo(mailEndpoint: string, address: string): Promise<CapturedEmail[]> {
  const response = await fetch(new URL('store', mailEndpoint));
  const { emails = [] } = (await response.json()) as { emails?: StoredEmail[] };
  return emails
    .map((email) => ({
      to: email.destination?.to ?? [],
      subject: email.subject ?? '',
      html: email.body?.html,
      text: email.body?.text,
      attachments: (email.attachments ?? []).map((attachment) => ({
        filename: attachment.filename ?? '',
        contentType: attachment.contentType ?? '',
        content: Buffer.from(attachment.content ?? '', 'base64'),
      })),
    }))
    .filter((email) => email.to.some((to) => to.includes(address)));
}
