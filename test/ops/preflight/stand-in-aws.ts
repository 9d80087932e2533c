/**
 * A stand-in for the AWS APIs the preflight reads, on a local port: it tells the services apart
 * by the signature's credential scope (`…/<region>/<service>/aws4_request`) and answers each
 * operation, in its own protocol, from a fixed account description. The preflight reaches it
 * through the SDK's own AWS_ENDPOINT_URL.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInAccount {
  readonly account: string;
  /** Regions holding the bootstrap's version parameter. */
  readonly bootstrapped: readonly string[];
  /** The stack's status, or undefined when it does not exist. */
  readonly stackStatus?: string;
  readonly identities: Readonly<Record<string, { readonly verified: boolean }>>;
  /** `rate`: the maximum send rate, e-mails a second. @default 14 */
  readonly ses: {
    readonly production: boolean;
    readonly sending: boolean;
    readonly quota: number;
    readonly rate?: number;
  };
  readonly concurrency: number;
  /** Tables by name, or with what DescribeTable says of them (items, key). */
  readonly tables: readonly (string | StandInTable)[];
  /** KMS keys by ARN, with their KeyState (`Enabled`, `PendingDeletion`…). */
  readonly keys?: Readonly<Record<string, string>>;
  /** ACM certificates in us-east-1 by ARN. */
  readonly certificates?: Readonly<Record<string, { readonly status: string; readonly names: readonly string[] }>>;
}

export interface StandInTable {
  readonly name: string;
  readonly itemCount: number;
  /** A customer managed key's ARN; none: AWS's own key. */
  readonly key?: string;
}

export const healthyAccount: StandInAccount = {
  account: '123456789012',
  bootstrapped: ['eu-west-1', 'us-east-1'],
  stackStatus: 'UPDATE_COMPLETE',
  identities: { 'cheatsheet@example.com': { verified: true } },
  ses: { production: true, sending: true, quota: 50_000 },
  concurrency: 1000,
  tables: ['cheat_sheet_requests', 'cheat_sheet_send_quotas'],
};

export interface StandInAws {
  readonly url: string;
  /** `service region operation` of every request, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

type Reply = { status: number; body: string; contentType: string; headers?: Record<string, string> };

const json = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({
  status,
  body: JSON.stringify(body),
  contentType: 'application/x-amz-json-1.1',
  headers,
});
const xml = (body: string, status = 200): Reply => ({ status, body, contentType: 'text/xml' });

function sts(account: StandInAccount): Reply {
  return xml(
    `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult>` +
      `<Arn>arn:aws:iam::${account.account}:user/ops</Arn><UserId>AIDAEXAMPLE</UserId><Account>${account.account}</Account>` +
      `</GetCallerIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
  );
}

function cloudFormation(account: StandInAccount, body: string): Reply {
  const stackName = new URLSearchParams(body).get('StackName') ?? '';
  if (account.stackStatus === undefined) {
    return xml(
      `<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type>` +
        `<Code>ValidationError</Code><Message>Stack with id ${stackName} does not exist</Message></Error><RequestId>1</RequestId></ErrorResponse>`,
      400,
    );
  }
  return xml(
    `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member>` +
      `<StackName>${stackName}</StackName><StackId>arn:aws:cloudformation:eu-west-1:${account.account}:stack/${stackName}/1</StackId>` +
      `<StackStatus>${account.stackStatus}</StackStatus><CreationTime>2026-01-01T00:00:00Z</CreationTime>` +
      `</member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></DescribeStacksResponse>`,
  );
}

function ssm(account: StandInAccount, region: string, body: string): Reply {
  const { Name } = JSON.parse(body) as { Name: string };
  return account.bootstrapped.includes(region)
    ? json({ Parameter: { Name, Type: 'String', Value: '30', Version: 1 } })
    : json({ __type: 'ParameterNotFound', message: `Parameter ${Name} not found.` }, 400);
}

function sesV2(account: StandInAccount, path: string): Reply {
  if (path === '/v2/email/account') {
    return json({
      ProductionAccessEnabled: account.ses.production,
      SendingEnabled: account.ses.sending,
      EnforcementStatus: account.ses.sending ? 'HEALTHY' : 'SHUTDOWN',
      SendQuota: { Max24HourSend: account.ses.quota, MaxSendRate: account.ses.rate ?? 14, SentLast24Hours: 0 },
    });
  }
  const identity = decodeURIComponent(path.replace('/v2/email/identities/', ''));
  const found = account.identities[identity];
  if (found === undefined) {
    return json({ message: `Email identity ${identity} does not exist.` }, 404, {
      'x-amzn-errortype': 'NotFoundException',
    });
  }
  return json({
    IdentityType: identity.includes('@') ? 'EMAIL_ADDRESS' : 'DOMAIN',
    VerifiedForSendingStatus: found.verified,
    VerificationStatus: found.verified ? 'SUCCESS' : 'PENDING',
  });
}

function dynamoDb(account: StandInAccount, body: string): Reply {
  const { TableName } = JSON.parse(body) as { TableName: string };
  const table = account.tables
    .map((t) => (typeof t === 'string' ? { name: t, itemCount: 0 } : t))
    .find(({ name }) => name === TableName);
  return table
    ? json({
        Table: {
          TableName,
          TableStatus: 'ACTIVE',
          ItemCount: table.itemCount,
          ...(table.key && { SSEDescription: { Status: 'ENABLED', SSEType: 'KMS', KMSMasterKeyArn: table.key } }),
        },
      })
    : json(
        {
          __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException',
          message: 'Requested resource not found',
        },
        400,
      );
}

function kms(account: StandInAccount, body: string): Reply {
  const { KeyId } = JSON.parse(body) as { KeyId: string };
  const state = account.keys?.[KeyId];
  return state
    ? json({ KeyMetadata: { KeyId, Arn: KeyId, KeyState: state, Enabled: state === 'Enabled' } })
    : json({ __type: 'NotFoundException', message: `Key '${KeyId}' does not exist` }, 400);
}

function acm(account: StandInAccount, body: string): Reply {
  const { CertificateArn } = JSON.parse(body) as { CertificateArn: string };
  const found = account.certificates?.[CertificateArn];
  return found
    ? json({
        Certificate: {
          CertificateArn,
          Status: found.status,
          DomainName: found.names[0],
          SubjectAlternativeNames: found.names,
        },
      })
    : json({ __type: 'ResourceNotFoundException', message: `Could not find certificate ${CertificateArn}.` }, 400);
}

function answer(
  account: StandInAccount,
  service: string,
  region: string,
  request: IncomingMessage,
  body: string,
): Reply {
  const path = (request.url ?? '/').split('?')[0];
  switch (service) {
    case 'sts':
      return sts(account);
    case 'cloudformation':
      return cloudFormation(account, body);
    case 'ssm':
      return ssm(account, region, body);
    case 'ses':
      return sesV2(account, path);
    case 'lambda':
      return json({ AccountLimit: { ConcurrentExecutions: account.concurrency }, AccountUsage: { FunctionCount: 0 } });
    case 'dynamodb':
      return dynamoDb(account, body);
    case 'acm':
      return acm(account, body);
    case 'kms':
      return kms(account, body);
    default:
      return json({ __type: 'UnknownOperationException', message: `no stand-in for ${service}` }, 400);
  }
}

export async function startStandInAws(account: StandInAccount): Promise<StandInAws> {
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const scope = /Credential=[^/]+\/\d+\/([^/]+)\/([^/]+)\//.exec(request.headers.authorization ?? '');
      const [region, service] = scope ? [scope[1], scope[2]] : ['none', 'none'];
      const target = request.headers['x-amz-target'];
      const operation =
        (typeof target === 'string' ? target.split('.')[1] : undefined) ??
        new URLSearchParams(body).get('Action') ??
        `${request.method} ${request.url}`;
      requests.push(`${service} ${region} ${operation}`);
      const reply = answer(account, service, region, request, body);
      response.writeHead(reply.status, { 'content-type': reply.contentType, ...reply.headers });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
