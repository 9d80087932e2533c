/**
 * One loopback endpoint every SDK client of the rehearsal calls (`AWS_ENDPOINT_URL`): it records
 * each request with who signed it (the access key id of SigV4's `Credential=`, which names the
 * caller's role) and the service and region of its credential scope, then passes it to the
 * emulator of that service, or answers it itself for what no emulator covers: Secrets Manager's
 * GetSecretValue from the secrets it was given, SQS's SendMessage (with its body's MD5), CloudFormation, Lambda's configuration and account
 * settings, STS, SSM's bootstrap version and SES's account, identity and configuration set (and
 * DynamoDB's DescribeTable before the first deploy) from the control plane's stand-in
 * (control-plane.ts), anything else with `200 {}`.
 *
 * s3rver accepts one key pair only, so an S3 request reaches it unsigned (it serves anonymous
 * requests); the signature was recorded before, and only the recording is judged.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { buffer } from 'node:stream/consumers';
import { closeServer, emulatorHost, listen } from '../emulators';
import type { StandInControlPlane } from './control-plane';

/** One AWS call as the rehearsal recorded it. */
export interface RecordedCall {
  /** The access key id the caller signed with. */
  readonly accessKeyId: string;
  /** The credential scope's service (`dynamodb`, `s3`, `ses`, `secretsmanager`, `sqs`…). */
  readonly service: string;
  readonly region: string;
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  /** `X-Amz-Target` of the JSON protocols. */
  readonly target?: string;
  readonly body: string;
  /** What the emulator (or the stand-in) answered. */
  readonly status: number;
  /** The scenario that made it. */
  readonly scenario: string;
}

export interface CallRecorder {
  readonly url: string;
  readonly calls: RecordedCall[];
  /** Names the scenario the following calls belong to. */
  scenario(name: string): void;
  /** The scenario the calls now belong to. */
  currentScenario(): string;
  close(): Promise<void>;
}

export interface CallRecorderTargets {
  readonly dynamodb: string;
  readonly s3: string;
  /** aws-ses-v2-local: SendEmail only. */
  readonly ses: string;
  /** Secret strings by ARN, for GetSecretValue. */
  readonly secrets: ReadonlyMap<string, string>;
  /** The stacks, functions and SES state the ops commands read. @default - none: `200 {}` */
  readonly controlPlane?: StandInControlPlane;
}

const credentialPattern = /Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/;

function forward(
  target: string,
  request: http.IncomingMessage,
  body: Buffer,
  response: http.ServerResponse,
  unsigned: boolean,
): Promise<number> {
  const headers = { ...request.headers };
  if (unsigned) {
    delete headers.authorization;
    delete headers['x-amz-security-token'];
  }
  return new Promise((resolve) => {
    const upstream = http.request(new URL(request.url ?? '/', target), { method: request.method, headers }, (reply) => {
      response.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(response);
      resolve(reply.statusCode ?? 502);
    });
    upstream.on('error', (error) => {
      response.destroy(error);
      resolve(502);
    });
    upstream.end(body);
  });
}

function answer(response: http.ServerResponse, status: number, body: unknown): number {
  response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(body));
  return status;
}

export async function startCallRecorder(targets: CallRecorderTargets): Promise<CallRecorder> {
  const calls: RecordedCall[] = [];
  let scenario = 'setup';
  const server = http.createServer((request, response) => {
    void buffer(request).then(async (body) => {
      const [, accessKeyId = 'unsigned', region = '', service = 'unknown'] =
        credentialPattern.exec(String(request.headers.authorization ?? '')) ?? [];
      const targetHeader = request.headers['x-amz-target'];
      const target = typeof targetHeader === 'string' ? targetHeader : undefined;
      let status: number;
      const standIn = targets.controlPlane?.answer(
        service,
        request.method ?? 'GET',
        request.url ?? '/',
        body.toString('utf8'),
        { ...(target && { target }), signer: accessKeyId },
      );
      if (standIn) {
        response.writeHead(standIn.status, { 'content-type': standIn.contentType }).end(standIn.body);
        status = standIn.status;
      } else if (service === 'dynamodb') status = await forward(targets.dynamodb, request, body, response, false);
      else if (service === 's3') status = await forward(targets.s3, request, body, response, true);
      else if (service === 'ses' && request.url?.startsWith('/v2/email/outbound-emails'))
        status = await forward(targets.ses, request, body, response, false);
      else if (service === 'sqs' && target?.endsWith('.SendMessage')) {
        // As SQS answers: the SDK checks the body's MD5.
        const { MessageBody = '' } = JSON.parse(body.toString('utf8')) as { MessageBody?: string };
        const md5 = createHash('md5').update(MessageBody, 'utf8').digest('hex');
        status = answer(response, 200, { MessageId: `rehearsal-${calls.length}`, MD5OfMessageBody: md5 });
      } else if (service === 'secretsmanager' && target?.endsWith('.GetSecretValue')) {
        const { SecretId } = JSON.parse(body.toString('utf8')) as { SecretId: string };
        const secret = targets.secrets.get(SecretId);
        status = secret
          ? answer(response, 200, { ARN: SecretId, Name: SecretId.split(':').pop(), SecretString: secret })
          : answer(response, 400, { __type: 'ResourceNotFoundException', message: `No secret ${SecretId}` });
      } else status = answer(response, 200, {});
      calls.push({
        accessKeyId,
        service,
        region,
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        ...(target && { target }),
        body: body.toString('utf8'),
        status,
        scenario,
      });
    });
  });
  const port = await listen(server, 0, emulatorHost);
  return {
    url: `http://${emulatorHost}:${port}`,
    calls,
    scenario: (name) => {
      scenario = name;
    },
    currentScenario: () => scenario,
    close: () => closeServer(server),
  };
}
