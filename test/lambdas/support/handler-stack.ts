/**
 * The emulators a handler test file runs against: the local stack on free ports (no site), the
 * environment set for the handlers, and readers for what landed in DynamoDB (both tables) and SES.
 */

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  sendPaceItemId,
  type AddressDailyCapItem,
  type CheatSheetRequestItem,
  type RollingCounterItem,
} from '../../../core/data/tables';
import { addressHashKeyFrom, type AddressHashKey } from '../../../core/data/address-hash';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../../local/local-stack';
import { cheatSheetPdfForTests } from '../../support/cheat-sheet-pdf';
import { capturedEmails, type CapturedEmail } from '../../support/captured-emails';

export interface HandlerStack {
  readonly stack: LocalStack;
  /** The PDF uploaded to the local bucket. */
  readonly pdf: Uint8Array;
  /** A client of the local DynamoDB, for tests of the storage modules themselves. */
  readonly dynamoDb: DynamoDBDocumentClient;
  /** The key the handlers hash addresses under: derived from this run's `CLIENT_ADDRESS_KEY`, as theirs. */
  readonly addressKey: AddressHashKey;
  /** The same key as the storage modules take it. */
  readonly addressKeySource: () => Promise<AddressHashKey>;
  /** Every item in the requests table, optionally only one address's. */
  items(email?: string): Promise<CheatSheetRequestItem[]>;
  /** The daily cap's items in the limit counters table (one per address). */
  addressDailyCapItems(): Promise<AddressDailyCapItem[]>;
  /** The per-client and send-budget counters' items in the same table (one per bucket). */
  counterItems(): Promise<RollingCounterItem[]>;
  /**
   * Every e-mail aws-ses-v2-local captured, optionally only those to one address, once the send
   * queue is drained (a send SES's rate had no slot for goes out after the reply).
   */
  emails(to?: string): Promise<CapturedEmail[]>;
  deletePdf(): Promise<void>;
  restorePdf(): Promise<void>;
  stop(): Promise<void>;
}

export async function startHandlerStack(options: LocalStackOptions = {}): Promise<HandlerStack> {
  // Set before the handlers (and so their loggers and metrics) are imported; the tests read replies, not logs.
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  // Metrics too are stdout lines; test/lambdas/runtime/metrics.test.ts turns them back on to read them.
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const pdf = await cheatSheetPdfForTests();
  const stack = await startLocalStack({
    siteDir: null,
    cheatSheetPdf: pdf,
    // The handler tests send dozens of cheat sheets from one source address; the tests of these
    // limits pass their own values.
    clientHourlySendCap: 1000,
    networkHourlySendCap: 1000,
    clientHourlySaveCap: 1000,
    networkHourlySaveCap: 1000,
    dailySendBudget: 10_000,
    ...options,
  });

  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const dynamoDb = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: stack.endpoints.dynamodb, region: 'us-east-1', credentials }),
  );
  const s3 = new S3Client({
    endpoint: stack.endpoints.s3,
    region: 'us-east-1',
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  const addressKey = addressHashKeyFrom(process.env.CLIENT_ADDRESS_KEY ?? '');
  return {
    stack,
    pdf,
    dynamoDb,
    addressKey,
    addressKeySource: () => Promise.resolve(addressKey),
    async items(email) {
      await stack.sendsDrained();
      const { Items = [] } = await dynamoDb.send(new ScanCommand({ TableName: stack.tableName }));
      const items = Items as CheatSheetRequestItem[];
      return email === undefined ? items : items.filter((item) => item.email === email);
    },
    async addressDailyCapItems() {
      const { Items = [] } = await dynamoDb.send(new ScanCommand({ TableName: stack.limitCountersTableName }));
      return Items.filter((item) => 'recent_sends' in item) as AddressDailyCapItem[];
    },
    async counterItems() {
      const { Items = [] } = await dynamoDb.send(new ScanCommand({ TableName: stack.limitCountersTableName }));
      // SES's send pace is one item of the same table, no counter.
      return Items.filter((item) => !('recent_sends' in item) && item.id !== sendPaceItemId) as RollingCounterItem[];
    },
    async emails(to) {
      await stack.sendsDrained();
      return capturedEmails(stack.urls.mail, to);
    },
    async deletePdf() {
      await s3.send(new DeleteObjectCommand({ Bucket: stack.bucket, Key: stack.key }));
    },
    async restorePdf() {
      await s3.send(new PutObjectCommand({ Bucket: stack.bucket, Key: stack.key, Body: pdf }));
    },
    async stop() {
      dynamoDb.destroy();
      s3.destroy();
      await stack.stop();
    },
  };
}
