/**
 * The send handler as deployed behind CloudFront (CLIENT_ADDRESS_SOURCE=cloudfront-viewer-address):
 * DynamoDB and SES are the emulators; Secrets Manager, which has no emulator here, is
 * aws-sdk-client-mock answering with the origin secret.
 */

import { createHash, createHmac } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute, sendRoute } from '../support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

// A dozen sends a test, on a machine other test files share.
jest.setTimeout(30_000);

const originSecret = 'Zq7'.repeat(21) + 'x';
const originSecretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:OriginSecret-AbCdEf';
const secretsMock = mockClient(SecretsManagerClient);

let emulators: HandlerStack;
let send: Handler;
let save: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack({ clientHourlySendCap: 10 });
  // What the CDK stack sets (infra/constructs/api.ts).
  process.env.CLIENT_ADDRESS_SOURCE = 'cloudfront-viewer-address';
  process.env.ORIGIN_SECRET_ARN = originSecretArn;
  secretsMock.on(GetSecretValueCommand, { SecretId: originSecretArn }).resolves({ SecretString: originSecret });
  ({ handler: send } = await import('../../../lambdas/send-cheat-sheet/handler'));
  ({ handler: save } = await import('../../../lambdas/save-request/handler'));
});
afterAll(async () => {
  secretsMock.restore();
  await emulators?.stop();
});

let visitorNumber = 0;
const newVisitor = () => ({ name: `Ada Owner ${++visitorNumber}`, email: `ada.edge.${visitorNumber}@example.com` });
let edgeNumber = 0;

/**
 * The page's two requests as CloudFront forwards them: from one of its edge servers, with the
 * viewer's address; the send's reply. (Saving first spares the send its look for a saved request.)
 */
async function throughCloudFront(viewer: string, headers: Record<string, string> = {}, visitor = newVisitor()) {
  const forwarded = {
    sourceIp: `130.176.${++edgeNumber % 250}.1`,
    headers: {
      'x-origin-secret': originSecret,
      'cloudfront-viewer-address': `${viewer}:${40000 + edgeNumber}`,
      ...headers,
    },
  };
  await save(postEvent(saveRoute, visitor, forwarded));
  return send(postEvent(sendRoute, visitor, forwarded));
}

describe('send-cheat-sheet behind CloudFront', () => {
  test('counts sends by the viewer address CloudFront forwards, whichever edge server they come through', async () => {
    for (let sent = 0; sent < 10; sent += 1) expect((await throughCloudFront('198.51.100.7')).statusCode).toBe(200);

    expect((await throughCloudFront('198.51.100.7')).statusCode).toBe(429);
    expect((await throughCloudFront('198.51.100.8')).statusCode).toBe(200);
  });

  test('ignores forwarding headers a viewer adds: they neither dodge nor reset its limit', async () => {
    for (let sent = 0; sent < 10; sent += 1) await throughCloudFront('198.51.100.9');

    const reply = await throughCloudFront('198.51.100.9', {
      'x-forwarded-for': '203.0.113.50',
      'x-real-ip': '203.0.113.51',
      forwarded: 'for=203.0.113.52',
    });

    expect(reply.statusCode).toBe(429);
  });

  test.each([
    ['without the origin secret', {}],
    ['with a guessed origin secret', { 'x-origin-secret': 'guess' }],
  ])(
    'refuses a direct call to the API %s with 403, whatever viewer address it claims, sending nothing',
    async (_, secretHeader: Record<string, string>) => {
      const visitor = newVisitor();

      const reply = await send(
        postEvent(sendRoute, visitor, {
          sourceIp: '203.0.113.60',
          headers: { 'cloudfront-viewer-address': '203.0.113.61:443', ...secretHeader },
        }),
      );

      expect(reply.statusCode).toBe(403);
      expect(replyJson(reply)).toEqual({ success: false, error: expect.any(String), code: expect.any(String) });
      expect(replyJson(reply).error).not.toMatch(/domain|verify/i);
      expect(await emulators.emails(visitor.email)).toEqual([]);
      expect(await emulators.items(visitor.email)).toEqual([]);
    },
  );

  test('reads the origin secret once per container', async () => {
    await throughCloudFront('198.51.100.10');
    await throughCloudFront('198.51.100.11');

    expect(secretsMock.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });
});

describe('the address hashes behind CloudFront', () => {
  /** The address's id as any party holding the address and the origin secret would compute it (Node's own HMAC). */
  const keyedWithOriginSecret = (email: string) =>
    createHmac('sha256', createHmac('sha256', originSecret).update('cheat-sheet address hashes').digest())
      .update(email)
      .digest('hex');
  const counterIds = async () => {
    const { Items = [] } = await emulators.dynamoDb.send(
      new ScanCommand({ TableName: emulators.stack.limitCountersTableName }),
    );
    return Items.map((item) => String(item.id));
  };

  test("a send's daily-cap item is keyed with the origin secret, not the address's plain SHA-256", async () => {
    const visitor = newVisitor();

    expect((await throughCloudFront('198.51.100.40', {}, visitor)).statusCode).toBe(200);

    const ids = await counterIds();
    expect(ids).toContain(keyedWithOriginSecret(visitor.email));
    expect(ids).not.toContain(createHash('sha256').update(visitor.email).digest('hex'));
  });

  test('the SES events function suppresses under the same keyed id, and the next send to the mailbox is refused', async () => {
    const visitor = newVisitor();
    expect((await throughCloudFront('198.51.100.41', {}, visitor)).statusCode).toBe(200);
    const [item] = await emulators.items(visitor.email);

    const { handler: sesEvents } = await import('../../../lambdas/ses-events/handler');
    await sesEvents({
      version: '0',
      id: 'bounce',
      'detail-type': 'Email Bounced',
      source: 'aws.ses',
      account: '123456789012',
      time: '2026-01-01T00:00:05Z',
      region: 'eu-west-1',
      resources: [],
      detail: {
        eventType: 'Bounce',
        mail: { messageId: item!.ses_message_id, destination: [visitor.email], tags: { request_id: [item!.id] } },
        bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: visitor.email }] },
      },
    });

    expect(await counterIds()).toContain(`suppressed#${keyedWithOriginSecret(visitor.email)}`);
    const again = await throughCloudFront('198.51.100.42', {}, visitor);
    expect([again.statusCode, replyJson(again).code]).toEqual([400, 'address_suppressed']);
    expect(await emulators.emails(visitor.email)).toHaveLength(1);
  });

  test('a mailbox suppressed before the ids were keyed (its plain SHA-256 id) is still refused, nothing stored or sent', async () => {
    const visitor = newVisitor();
    await emulators.dynamoDb.send(
      new PutCommand({
        TableName: emulators.stack.limitCountersTableName,
        Item: {
          id: `suppressed#${createHash('sha256').update(visitor.email).digest('hex')}`,
          reason: 'complaint',
          suppressed_at: '2025-06-01T12:00:00.000Z',
        },
      }),
    );

    const reply = await throughCloudFront('198.51.100.43', {}, { ...visitor, email: visitor.email.toUpperCase() });

    expect([reply.statusCode, replyJson(reply).code]).toEqual([400, 'address_suppressed']);
    expect(await emulators.items(visitor.email)).toEqual([]);
    expect(await emulators.emails(visitor.email)).toEqual([]);
  });
});
