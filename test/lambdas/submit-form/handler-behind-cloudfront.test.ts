/**
 * The form route as deployed behind CloudFront (CLIENT_ADDRESS_SOURCE=cloudfront-viewer-address):
 * DynamoDB and SES are the emulators; Secrets Manager is aws-sdk-client-mock answering with the
 * origin secret. The form runs the send route's handler, so it trusts the viewer address only
 * with the secret, and refuses a request without it.
 */

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { untrustedOriginMessage } from '../../../core/api/messages';
import { startHandlerStack, type HandlerStack } from '../support/handler-stack';
import { formEvent } from '../support/http-api-events';
import { documented, type Handler } from '../support/documented-handler';

jest.setTimeout(30_000);

const originSecret = 'Fm9'.repeat(21) + 'y';
const originSecretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:OriginSecret-FoRmXy';
const secretsMock = mockClient(SecretsManagerClient);

let emulators: HandlerStack;
let form: Handler;

beforeAll(async () => {
  emulators = await startHandlerStack({ clientHourlySendCap: 2 });
  // What the CDK stack sets (infra/constructs/api.ts).
  process.env.CLIENT_ADDRESS_SOURCE = 'cloudfront-viewer-address';
  process.env.ORIGIN_SECRET_ARN = originSecretArn;
  secretsMock.on(GetSecretValueCommand, { SecretId: originSecretArn }).resolves({ SecretString: originSecret });
  form = documented((await import('../../../lambdas/submit-form/handler')).handler);
});
afterAll(async () => {
  secretsMock.restore();
  await emulators?.stop();
});

let visitorNumber = 0;
const newVisitor = () => ({
  name: `Ada Owner ${++visitorNumber}`,
  email: `ada.form-edge.${visitorNumber}@example.com`,
});
let edgeNumber = 0;

/** The form as CloudFront forwards it: from one of its edge servers, with the secret and the viewer's address. */
function throughCloudFront(viewer: string, visitor = newVisitor()) {
  return form(
    formEvent(
      { ...visitor, hasBook: 'on' },
      {
        sourceIp: `130.176.${++edgeNumber % 250}.1`,
        headers: { 'x-origin-secret': originSecret, 'cloudfront-viewer-address': `${viewer}:${40000 + edgeNumber}` },
      },
    ),
  );
}

test('counts the form by the viewer address CloudFront forwards, whichever edge server it comes through', async () => {
  for (let sent = 0; sent < 2; sent += 1) {
    expect(await throughCloudFront('198.51.100.41')).toMatchObject({ headers: { Location: '/cheat-sheet/sent' } });
  }

  expect(await throughCloudFront('198.51.100.41')).toMatchObject({ headers: { Location: '/cheat-sheet/not-sent' } });
  expect(await throughCloudFront('198.51.100.42')).toMatchObject({ headers: { Location: '/cheat-sheet/sent' } });
});

test('refuses a form posted to the API past CloudFront with a 403 page, and sends nothing', async () => {
  const visitor = newVisitor();

  const reply = await form(
    formEvent(
      { ...visitor, hasBook: 'on' },
      { sourceIp: '203.0.113.70', headers: { 'cloudfront-viewer-address': '203.0.113.71:443' } },
    ),
  );

  expect(reply.statusCode).toBe(403);
  expect(reply.headers).toMatchObject({ 'Content-Type': 'text/html; charset=utf-8' });
  expect(reply.body).toContain(`<p>${untrustedOriginMessage}</p>`);
  expect(await emulators.emails(visitor.email)).toEqual([]);
});
