/**
 * The local twin the rehearsal runs the cloud assembly's functions on: dynalite, s3rver and
 * aws-ses-v2-local behind one call recorder (call-recorder.ts), the tables created from the
 * core's definitions, the bucket and object each function's variables name, a secret for each
 * `…_SECRET_ARN`, and each function in a process of its own (function-host.ts) signing with an
 * access key id of its own, so the recorder knows which role made each call.
 */
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { tables } from '../../core/data/tables';
import { startDynamoDbEmulator, startS3Emulator, startSesEmulator, emulatorHost } from '../emulators';
import { createTableInput } from '../local-tables';
import { startCallRecorder, type CallRecorder } from './call-recorder';
import { standInControlPlane, type ControlPlane, type StandInControlPlane } from './control-plane';
import { hostFunction, type FunctionHost, type HostedFunction } from './function-host';
import { startEdgeStandIn } from './edge-stand-in';
import { canaryVariables } from '../../lambdas/canary/canary-run';

export interface RehearsedFunction extends Omit<HostedFunction, 'environment'> {
  readonly arn: string;
  readonly region: string;
  /** The access key id its calls are signed with: the rehearsal maps it back to the function's role. */
  readonly accessKeyId: string;
  /** The template's variables, references resolved. */
  readonly environment: Readonly<Record<string, string>>;
}

export interface RehearsalTwin {
  readonly recorder: CallRecorder;
  /** The secret strings by ARN (the origin secret's value goes in the scenarios' requests). */
  readonly secrets: ReadonlyMap<string, string>;
  /** The loopback endpoint an ops command's clients call, signing as the role they act for. */
  readonly endpoint: string;
  /** `DNS_SERVERS` of the functions: the stand-in that fails every query, so the domain check fails open. */
  readonly dnsServers: string;
  /** What CloudFormation, Lambda, STS and SES's control plane answer the ops commands. */
  readonly controlPlane: StandInControlPlane;
  invoke(name: string, event: unknown): Promise<unknown>;
  readonly functions: readonly RehearsedFunction[];
  stop(): Promise<void>;
}

/**
 * Answers every DNS query SERVFAIL at once: the send's recipient-domain check fails open
 * (lambdas/mail/recipient-domain.ts), as it does when a resolver is down, without the network.
 */
async function startFailingDns(): Promise<{ address: string; close: () => void }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => {
    const reply = Buffer.from(query);
    reply[2] |= 0x80;
    reply[3] = (reply[3] & 0xf0) | 2;
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, emulatorHost, resolve));
  return { address: `${emulatorHost}:${socket.address().port}`, close: () => socket.close() };
}

/** A PDF's first bytes: the send function attaches whatever the object holds. */
const standInPdf = Buffer.from('%PDF-1.4\n%rehearsal\n');

export async function startRehearsalTwin(
  functions: readonly RehearsedFunction[],
  /** The stacks and functions as CloudFormation and Lambda describe them to the ops commands. */
  deployment: ControlPlane,
): Promise<RehearsalTwin> {
  const s3Directory = mkdtempSync(path.join(os.tmpdir(), 'rehearsal-s3-'));
  const [dynamodb, s3, ses, dns] = await Promise.all([
    startDynamoDbEmulator(0),
    startS3Emulator(0, s3Directory),
    startSesEmulator(0),
    startFailingDns(),
  ]);
  const hosts = new Map<string, FunctionHost>();
  const secrets = new Map<string, string>();
  for (const fn of functions) {
    for (const [name, value] of Object.entries(fn.environment)) {
      if (name.endsWith('_SECRET_ARN') && !secrets.has(value)) secrets.set(value, randomBytes(24).toString('hex'));
    }
  }
  const controlPlane = standInControlPlane(deployment);
  const recorder = await startCallRecorder({ dynamodb: dynamodb.url, s3: s3.url, ses: ses.url, secrets, controlPlane });
  // The site's address as the canary meets it: the routes' functions behind a stand-in distribution.
  const originSecretArn = functions.find((fn) => fn.environment.ORIGIN_SECRET_ARN)?.environment.ORIGIN_SECRET_ARN;
  const edge = await startEdgeStandIn(
    (name, event) => hosts.get(name)!.invoke(event),
    secrets.get(originSecretArn ?? '') ?? '',
  );
  const stop = async () => {
    await edge.close();
    await Promise.all([...hosts.values()].map((host) => host.stop()));
    await recorder.close();
    dns.close();
    await Promise.all([dynamodb.close(), s3.close(), ses.close()]);
    rmSync(s3Directory, { recursive: true, force: true });
  };
  try {
    // Set up straight on the emulators: the stack's deployment, not a call any role makes.
    const setup = new DynamoDBClient({
      endpoint: dynamodb.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'setup', secretAccessKey: 'setup' },
    });
    for (const table of tables) await setup.send(new CreateTableCommand(createTableInput(table)));
    setup.destroy();
    const objects = new Set(
      functions
        .filter((fn) => fn.environment.CHEAT_SHEET_BUCKET && fn.environment.CHEAT_SHEET_KEY)
        .map((fn) => `${fn.environment.CHEAT_SHEET_BUCKET}/${fn.environment.CHEAT_SHEET_KEY}`),
    );
    for (const object of objects) {
      await fetch(`${s3.url}/${object.split('/')[0]}`, { method: 'PUT' });
      await fetch(`${s3.url}/${object}`, { method: 'PUT', body: standInPdf });
    }
    for (const fn of functions) {
      const host = await hostFunction(
        {
          ...fn,
          environment: {
            ...fn.environment,
            ...(fn.environment[canaryVariables.siteUrl] !== undefined && { [canaryVariables.siteUrl]: edge.url }),
            AWS_REGION: fn.region,
            AWS_DEFAULT_REGION: fn.region,
            AWS_ACCESS_KEY_ID: fn.accessKeyId,
            AWS_SECRET_ACCESS_KEY: 'rehearsal',
            AWS_SESSION_TOKEN: 'rehearsal',
            AWS_ENDPOINT_URL: recorder.url,
            AWS_EC2_METADATA_DISABLED: 'true',
            AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
            AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
            DNS_SERVERS: dns.address,
            POWERTOOLS_LOG_LEVEL: 'WARN',
          },
        },
        fn.arn,
      );
      hosts.set(fn.name, host);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    recorder,
    secrets,
    endpoint: recorder.url,
    dnsServers: dns.address,
    controlPlane,
    functions,
    invoke: (name, event) => {
      const host = hosts.get(name);
      if (!host) throw new Error(`No function ${name} in the rehearsal`);
      return host.invoke(event);
    },
    stop,
  };
}
