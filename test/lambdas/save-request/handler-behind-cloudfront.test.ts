/**
 * The save handler as deployed behind CloudFront (CLIENT_ADDRESS_SOURCE=cloudfront-viewer-address):
 * DynamoDB is the emulator; Secrets Manager is aws-sdk-client-mock answering with the origin secret.
 */

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { postEvent, replyJson, saveRoute } from '../support/http-api-events';

type Handler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

jest.setTimeout(30_000);

const originSecret = 'Qx4'.repeat(21) + 'y';
const originSecretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:OriginSecret-AbCdEf';
const secretsMock = mockClient(SecretsManagerClient);

let emulators: HandlerStack;
let save: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack();
  // What the CDK stack sets (infra/constructs/api.ts).
  process.env.CLIENT_ADDRESS_SOURCE = 'cloudfront-viewer-address';
  process.env.ORIGIN_SECRET_ARN = originSecretArn;
  secretsMock.on(GetSecretValueCommand, { SecretId: originSecretArn }).resolves({ SecretString: originSecret });
  ({ handler: save } = await import('../../../lambdas/save-request/handler'));
});
afterAll(async () => {
  secretsMock.restore();
  await emulators?.stop();
});

let visitorNumber = 0;
const newVisitor = () => ({ name: 'Ada Lovelace', email: `ada.edge-save.${++visitorNumber}@example.com` });

test('refuses a save without the origin secret with 403 untrusted_origin, and stores nothing', async () => {
  const visitor = newVisitor();

  const reply = await save(
    postEvent(saveRoute, visitor, { headers: { 'cloudfront-viewer-address': '198.51.100.7:40000' } }),
  );

  expect([reply.statusCode, replyJson(reply).code]).toEqual([403, 'untrusted_origin']);
  expect(await emulators.items(visitor.email)).toEqual([]);
});

test('refuses a save with a wrong origin secret with 403, and stores nothing', async () => {
  const visitor = newVisitor();

  const reply = await save(
    postEvent(saveRoute, visitor, {
      headers: { 'x-origin-secret': 'not-the-secret', 'cloudfront-viewer-address': '198.51.100.7:40000' },
    }),
  );

  expect(reply.statusCode).toBe(403);
  expect(await emulators.items(visitor.email)).toEqual([]);
});

test('stores a save that carries the origin secret', async () => {
  const visitor = newVisitor();

  const reply = await save(
    postEvent(saveRoute, visitor, {
      headers: { 'x-origin-secret': originSecret, 'cloudfront-viewer-address': '198.51.100.7:40000' },
    }),
  );

  expect(reply.statusCode).toBe(201);
  expect(await emulators.items(visitor.email)).toHaveLength(1);
});
