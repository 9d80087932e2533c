/**
 * What an SDK call was, read back from the HTTP request the client sent: the client package, the
 * command and its input. The floor of the cold-start measurement replays these with the plain
 * clients, so it makes the function's own calls and nothing else.
 *
 * The JSON protocols (DynamoDB, Secrets Manager, SQS) name the operation in `X-Amz-Target` and
 * send the command's input as the body. The REST protocols of S3 and SES v2 are read from their
 * paths, for the operations the functions call; a call no rule reads fails the measurement,
 * naming it, rather than giving the floor fewer calls than the function.
 */

import type { RecordedRequest } from './recording-proxy';

/** The services a function may call, by the suffix of the SDK's `AWS_ENDPOINT_URL_<SERVICE>`. */
export const recordedServices = ['DYNAMODB', 'S3', 'SESV2', 'SECRETS_MANAGER', 'SQS'] as const;
export type RecordedService = (typeof recordedServices)[number];

/** The client package and class of each service. */
export const serviceClients: Readonly<Record<RecordedService, { readonly module: string; readonly client: string }>> = {
  DYNAMODB: { module: '@aws-sdk/client-dynamodb', client: 'DynamoDBClient' },
  S3: { module: '@aws-sdk/client-s3', client: 'S3Client' },
  SESV2: { module: '@aws-sdk/client-sesv2', client: 'SESv2Client' },
  SECRETS_MANAGER: { module: '@aws-sdk/client-secrets-manager', client: 'SecretsManagerClient' },
  SQS: { module: '@aws-sdk/client-sqs', client: 'SQSClient' },
};

/** One call, as the floor makes it: `new <command>(input)` sent by the service's client. */
export interface SdkCall {
  readonly service: RecordedService;
  /** The command class, e.g. `PutItemCommand`. */
  readonly command: string;
  /** JSON-safe; `blobs` names the fields that are bytes, given here as base64. */
  readonly input: Record<string, unknown>;
  readonly blobs?: readonly string[];
}

const jsonInput = (body: Buffer): Record<string, unknown> =>
  body.length === 0 ? {} : (JSON.parse(body.toString('utf8')) as Record<string, unknown>);

const pathParts = (url: string) =>
  new URL(url, 'http://stand-in').pathname
    .split('/')
    .filter(Boolean)
    .map((part) => decodeURIComponent(part));

function s3Call(request: RecordedRequest): Omit<SdkCall, 'service'> {
  const [bucket, ...key] = pathParts(request.url);
  const object = { Bucket: bucket, Key: key.join('/') };
  if (request.method === 'GET' && key.length > 0) return { command: 'GetObjectCommand', input: object };
  if (request.method === 'HEAD' && key.length > 0) return { command: 'HeadObjectCommand', input: object };
  throw new Error(`No replay rule for S3 ${request.method} ${request.url}`);
}

function sesCall(request: RecordedRequest): Omit<SdkCall, 'service'> {
  const parts = pathParts(request.url);
  const route = `${request.method} /${parts.join('/')}`;
  if (route === 'POST /v2/email/outbound-emails') {
    return { command: 'SendEmailCommand', input: jsonInput(request.body), blobs: ['Content.Raw.Data'] };
  }
  if (request.method === 'PUT' && parts[2] === 'configuration-sets' && parts[4] === 'sending') {
    return {
      command: 'PutConfigurationSetSendingOptionsCommand',
      input: { ConfigurationSetName: parts[3], ...jsonInput(request.body) },
    };
  }
  if (route === 'GET /v2/email/account') return { command: 'GetAccountCommand', input: {} };
  if (request.method === 'DELETE' && parts[2] === 'suppression' && parts[3] === 'addresses') {
    return { command: 'DeleteSuppressedDestinationCommand', input: { EmailAddress: parts[4] } };
  }
  throw new Error(`No replay rule for SES v2 ${route}`);
}

/** Reads one recorded request back into the call that made it. */
export function sdkCallOf(service: RecordedService, request: RecordedRequest): SdkCall {
  if (request.target) {
    const operation = request.target.slice(request.target.lastIndexOf('.') + 1);
    return { service, command: `${operation}Command`, input: jsonInput(request.body) };
  }
  if (service === 'S3') return { service, ...s3Call(request) };
  if (service === 'SESV2') return { service, ...sesCall(request) };
  throw new Error(`No replay rule for ${service} ${request.method} ${request.url}`);
}

/** `service/command`, the name a call is compared by. */
export const callName = (call: Pick<SdkCall, 'service' | 'command'>) => `${call.service}/${call.command}`;

/**
 * The floor's handler: the same clients, created at load (Lambda's init phase), sending the same
 * calls in the same order, with nothing else: no Powertools, no validation, no product code. A
 * call that fails (a conditional write meeting its own earlier replay) still made its round trip.
 */
export function floorHandlerSource(calls: readonly SdkCall[]): string {
  const services = [...new Set(calls.map((call) => call.service))];
  const imports = services.map((service) => {
    const { module, client } = serviceClients[service];
    const commands = [...new Set(calls.filter((call) => call.service === service).map((call) => call.command))];
    return `import { ${client}, ${commands.join(', ')} } from ${JSON.stringify(module)};`;
  });
  const clients = services.map((service) => `  ${service}: new ${serviceClients[service].client}({}),`);
  const sends = calls.map((call) => {
    const input = call.blobs?.length
      ? `withBytes(${JSON.stringify(call.input)}, ${JSON.stringify(call.blobs)})`
      : JSON.stringify(call.input);
    return `  await clients.${call.service}.send(new ${call.command}(${input})).catch(() => undefined);`;
  });
  return [
    ...imports,
    `const clients = {`,
    ...clients,
    `};`,
    `function withBytes(input, paths) {`,
    `  for (const path of paths) {`,
    `    const keys = path.split('.');`,
    `    const parent = keys.slice(0, -1).reduce((value, key) => value?.[key], input);`,
    `    const last = keys[keys.length - 1];`,
    `    if (parent && typeof parent[last] === 'string') parent[last] = Buffer.from(parent[last], 'base64');`,
    `  }`,
    `  return input;`,
    `}`,
    `export const handler = async () => {`,
    ...sends,
    `  return { statusCode: 200 };`,
    `};`,
    ``,
  ].join('\n');
}
