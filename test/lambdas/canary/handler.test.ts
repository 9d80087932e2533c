/**
 * The canary function against the local twin serving the real build (`npm run build` first): its
 * runs on their schedule's times, what each sends, and when a run fails (its invocation throws,
 * which is its Errors metric). The twin's SES sends no delivery events: the test records
 * `delivered` as the SES events function would.
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { buildOutput } from '../../../core/build-output';
import { securityHeaders } from '../../../core/config/edge-headers';
import type { CheatSheetRequestItem } from '../../../core/data/tables';
import { startLocalStack, type LocalStack } from '../../../local/local-stack';
import { capturedEmails } from '../../support/captured-emails';
import { cheatSheetPdfForTests, stackStartTimeoutMs } from '../../support/cheat-sheet-pdf';

const siteDir = path.join(process.cwd(), buildOutput.siteDirectory);
let stack: LocalStack;
let dynamoDb: DynamoDBDocumentClient;
let handler: typeof import('../../../lambdas/canary/handler').handler;
let brokenApi: http.Server;

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  stack = await startLocalStack({ siteDir, cheatSheetPdf: await cheatSheetPdfForTests(), challenge: 'on' });
  process.env.CANARY_SITE_URL = stack.urls.site;
  dynamoDb = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.endpoints.dynamodb,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    }),
  );
  ({ handler } = await import('../../../lambdas/canary/handler'));
  // The page as built, and a 500 for every API call: an API that is down.
  const page = readFileSync(path.join(siteDir, 'index.html'), 'utf8');
  brokenApi = http.createServer((request, response) => {
    if (request.url?.startsWith('/api/')) response.writeHead(500, { 'content-type': 'application/json' }).end('{}');
    else response.writeHead(200, { ...securityHeaders, 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => brokenApi.listen(0, '127.0.0.1', resolve));
}, stackStartTimeoutMs);
afterAll(async () => {
  delete process.env.CANARY_SITE_URL;
  await new Promise((resolve) => brokenApi?.close(resolve));
  dynamoDb?.destroy();
  await stack?.stop();
});

const items = async () =>
  ((await dynamoDb.send(new ScanCommand({ TableName: stack.tableName }))).Items ?? []) as CheatSheetRequestItem[];
const emailsTo = async (run: string) =>
  (await capturedEmails(stack.urls.mail)).filter((email) => email.destination.to[0]!.includes(`+${run}@`));

test('a sending run (on the half hour) saves and sends to its own simulator address, marked as the canary', async () => {
  await handler({ time: '2026-11-28T23:30:00Z' });

  expect(await emailsTo('20261128t2330')).toHaveLength(1);
  const mine = (await items()).filter((item) => item.email === 'success+20261128t2330@simulator.amazonses.com');
  expect(mine.map((item) => [item.canary, item.delivery_status])).toEqual([[true, 'sent']]);
});

test('the runs between save only, and fail once the earlier e-mail is still not delivered 10 minutes on', async () => {
  await handler({ time: '2026-11-28T23:35:00Z' });
  await expect(handler({ time: '2026-11-28T23:40:00Z' })).rejects.toThrow(/earlier e-mail delivered/);

  expect(await emailsTo('20261128t2335')).toEqual([]);
  // The failed check sends again, so a sending outage meets a refused send every run.
  expect(await emailsTo('20261128t2340')).toHaveLength(1);
});

test('once the e-mail is delivered, the next runs pass', async () => {
  for (const item of (await items()).filter((candidate) => candidate.delivery_status === 'sent')) {
    await dynamoDb.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: { id: item.id },
        UpdateExpression: 'SET delivery_status = :delivered',
        ExpressionAttributeValues: { ':delivered': 'delivered' },
      }),
    );
  }

  await expect(handler({ time: '2026-11-28T23:45:00Z' })).resolves.toBeUndefined();
});

test('an API that answers 500 fails the run, naming the save and its status', async () => {
  process.env.CANARY_SITE_URL = `http://127.0.0.1:${(brokenApi.address() as AddressInfo).port}/`;
  try {
    await expect(handler({ time: '2026-11-29T03:05:00Z' })).rejects.toThrow(
      /save \(POST \/api\/cheat-sheet-requests 500\)/,
    );
  } finally {
    process.env.CANARY_SITE_URL = stack.urls.site;
  }
});
