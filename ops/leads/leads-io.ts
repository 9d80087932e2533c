/** What the leads command reads and writes, and the clients it calls: shared by its operations. */

import { createInterface } from 'node:readline/promises';
import type { Readable } from 'node:stream';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { STSClient } from '@aws-sdk/client-sts';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MailProviderClient } from '../../lambdas/mail-provider/mail-provider-client';

export interface LeadsClients {
  readonly dynamoDb: DynamoDBDocumentClient;
  readonly cloudFormation: CloudFormationClient;
  /** erase removes the address from the account's SES suppression list; export --mail sends through it. */
  readonly ses: SESv2Client;
  /** erase reads the mail provider's key. @default none: no provider is reached */
  readonly secretsManager?: SecretsManagerClient;
  /** resend --stack reads the send function's environment. */
  readonly lambda?: LambdaClient;
  /** resend --stack assumes the send function's role. */
  readonly sts?: STSClient;
  /** dead-letters reads and redrives the stack's dead-letter queues. */
  readonly sqs?: SQSClient;
}

export interface LeadsCommandIo {
  /** The CSV (without --out) and erase's report. */
  readonly stdout: (text: string) => void;
  /** Progress, questions and errors. */
  readonly stderr: (text: string) => void;
  /** Where erase reads its y/N answer. */
  readonly stdin: Readable;
  readonly env: NodeJS.ProcessEnv;
  /** @default clients from the SDK's usual settings (credentials, region, AWS_ENDPOINT_URL_DYNAMODB) */
  readonly clients?: () => LeadsClients;
  /** Items per Scan call, for tests. @default DynamoDB's own page */
  readonly pageSize?: number;
  /** Export reports its progress on stderr once it has read this many. @default 1000 */
  readonly progressFrom?: number;
  /** @default new Date() */
  readonly now?: () => Date;
  /**
   * The mail provider erase removes the address from.
   *
   * @default the stack's (its MailProvider outputs) with --stack, else the functions' variables (MAIL_PROVIDER…); none without either
   */
  readonly mailProvider?: () => Promise<MailProviderClient | undefined>;
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A y/N question on stderr, answered on stdin; a closed stdin counts as no. */
export async function confirmed(io: LeadsCommandIo, question: string): Promise<boolean> {
  const reader = createInterface({ input: io.stdin, terminal: false });
  try {
    io.stderr(question);
    // A closed stdin (no answer at all) counts as no.
    const answer = await new Promise<string>((resolve) => {
      reader.once('line', resolve);
      reader.once('close', () => resolve(''));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    reader.close();
  }
}
