/**
 * The preflight's AWS SDK clients, made in one place: the SDK's default credentials, the region
 * the stack deploys to, and its own endpoint settings (AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_<SERVICE>),
 * which is how the tests point them at a stand-in. Every call the checks make is a read.
 */

import { ACMClient } from '@aws-sdk/client-acm';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SSMClient } from '@aws-sdk/client-ssm';
import { STSClient } from '@aws-sdk/client-sts';

/** CloudFront reads its certificates (and its web ACLs) only from here. */
export const cloudFrontRegion = 'us-east-1';

export interface PreflightClients {
  readonly cloudFormation: CloudFormationClient;
  readonly dynamoDb: DynamoDBClient;
  /** DescribeKey of a leftover table's key: is its deletion scheduled? */
  readonly kms: KMSClient;
  readonly lambda: LambdaClient;
  readonly ses: SESv2Client;
  /** The bootstrap's parameter lives in each region the app deploys to. */
  readonly ssm: (region: string) => SSMClient;
  /** In us-east-1, where CloudFront's certificates are. */
  readonly acm: ACMClient;
  /** Closes every client's connections, so the command exits at once. */
  destroy(): void;
}

/** The SDK's default region (AWS_REGION, the profile), or undefined when none is set. */
export async function defaultRegion(): Promise<string | undefined> {
  const sts = new STSClient({});
  try {
    return await sts.config.region();
  } catch {
    return undefined;
  } finally {
    sts.destroy();
  }
}

export function createStsClient(region: string): STSClient {
  return new STSClient({ region });
}

export function createPreflightClients(region: string): PreflightClients {
  const ssmClients = new Map<string, SSMClient>();
  const clients = {
    cloudFormation: new CloudFormationClient({ region }),
    dynamoDb: new DynamoDBClient({ region }),
    kms: new KMSClient({ region }),
    lambda: new LambdaClient({ region }),
    ses: new SESv2Client({ region }),
    acm: new ACMClient({ region: cloudFrontRegion }),
  };
  return {
    ...clients,
    ssm: (ssmRegion) => {
      const client = ssmClients.get(ssmRegion) ?? new SSMClient({ region: ssmRegion });
      ssmClients.set(ssmRegion, client);
      return client;
    },
    destroy: () => {
      for (const client of [...Object.values(clients), ...ssmClients.values()]) client.destroy();
    },
  };
}
