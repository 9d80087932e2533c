/**
 * The SDK clients, created once per container (at module load, in Lambda's init phase) and
 * reused by every invocation so connections stay warm. Region, credentials and, for local runs,
 * endpoints (AWS_ENDPOINT_URL_DYNAMODB / _S3 / _SESV2) all come from the SDK's own environment
 * variables.
 */

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sdkTimeouts } from '../../core/config/sdk-timeouts';

// Each call fails within worstCaseSdkCallMs (sdk-timeouts.ts: 2 attempts of at most 3 s, plus at
// most 1 s of back-off), which the functions' timeouts leave room for (infra/constructs/api.ts).
const requestHandler = {
  connectionTimeout: sdkTimeouts.connectionTimeoutMs,
  requestTimeout: sdkTimeouts.requestTimeoutMs,
  throwOnRequestTimeout: true,
};
const clientSettings = { maxAttempts: sdkTimeouts.maxAttempts, requestHandler };

// Marked pure so a bundle keeps only the clients its handler uses (save-request: DynamoDB alone;
// send-cheat-sheet: all four, Secrets Manager for the origin secret behind CloudFront).
/** The plain client: Powertools' idempotency records (lambdas/requests/idempotency.ts) use it as it is. */
export const dynamoDbClient = /* @__PURE__ */ new DynamoDBClient(clientSettings);

export const dynamoDb = /* @__PURE__ */ DynamoDBDocumentClient.from(dynamoDbClient, {
  marshallOptions: { removeUndefinedValues: true },
});

export const s3 = /* @__PURE__ */ new S3Client(clientSettings);

// One attempt: SendEmail is not idempotent, so only the sender (email-sender.ts) retries, and only
// a failure that proves SES accepted nothing.
// (Written out, not spread: esbuild keeps a spread as a possible side effect, and with it the SES
// client in every bundle.)
export const ses = /* @__PURE__ */ new SESv2Client({ maxAttempts: 1, requestHandler });

export const secretsManager = /* @__PURE__ */ new SecretsManagerClient(clientSettings);

/**
 * The send queue (lambdas/requests/send-queue.ts) and the lead hand-off's queues. The region's
 * endpoint (or AWS_ENDPOINT_URL_SQS), never the queue URL's host: the queues are the stack's, in
 * the function's region, and a local twin or rehearsal names its own endpoint.
 */
export const sqs = /* @__PURE__ */ new SQSClient({
  maxAttempts: sdkTimeouts.maxAttempts,
  requestHandler,
  useQueueUrlAsEndpoint: false,
});
