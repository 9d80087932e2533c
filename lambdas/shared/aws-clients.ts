/**
 * The SDK clients, created once per container (at module load, in Lambda's init phase) and
 * reused by every invocation so connections stay warm. Region, credentials and, for local runs,
 * endpoints (AWS_ENDPOINT_URL_DYNAMODB / _S3 / _SESV2) all come from the SDK's own environment
 * variables.
 */

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// Fail fast enough that a retry still fits in the function's timeout when a service is unreachable.
const requestHandler = { connectionTimeout: 2_000, requestTimeout: 5_000 };

// Marked pure so a bundle keeps only the clients its handler uses (save-request: DynamoDB alone).
export const dynamoDb = /* @__PURE__ */ DynamoDBDocumentClient.from(new DynamoDBClient({ requestHandler }), {
  marshallOptions: { removeUndefinedValues: true },
});

export const s3 = /* @__PURE__ */ new S3Client({ requestHandler });

export const ses = /* @__PURE__ */ new SESv2Client({ requestHandler });
