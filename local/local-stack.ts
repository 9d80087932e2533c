/**
 * The whole product on one machine, in this process: dynalite, s3rver and aws-ses-v2-local on
 * 127.0.0.1, the two tables and the bucket created, the PDF uploaded, and one HTTP server for
 * the built site and the API running the real Lambda handlers. `npm start`, `npm run dev` and
 * the tests all start it through `startLocalStack`.
 *
 * The handlers read their configuration and the SDK its endpoints from process.env, and create
 * their clients when first imported: so the environment is set before they are imported, and a
 * process (or a jest module registry) runs one stack at a time.
 */

import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { cheatSheetFileName } from '../core/content/cheat-sheet';
import type { CatalogueFunction } from '../core/api/catalogue/function-entry';
import { functionList } from '../core/api/catalogue/functions';
import { routesOf, type ProductRoute } from '../core/api/catalogue/routes';
import {
  saveRequestEnvironment,
  sendCheatSheetEnvironment,
  sendCheatSheetVariables,
  visitCountEnvironment,
  type RecipientDomainCheckSetting,
  type ChallengeSetting,
} from '../core/config/function-environment';
import { funnelVisitorsTable, requestsTable, limitCountersTable, tables } from '../core/data/tables';
import { buildOutput } from '../core/build-output';
import { startEmailFaultInjector, type EmailFault, type EmailFaultInjector } from './email-fault-injector';
import { importQueuedSender, sesLimitsOf } from './queued-sender';
import { startLocalSendQueue } from './send-queue';
import {
  closeServer,
  emulatorHost,
  listen,
  PortInUseError,
  startDynamoDbEmulator,
  startS3Emulator,
  startSesEmulator,
  type RunningServer,
} from './emulators';
import { portVariables, serviceNames, type LocalStackPorts, type Service } from './ports';
import { createTableInput } from './local-tables';
import { refusalPage } from '../lambdas/submit-form/form-reply';
import { fromHandlerResult } from './api-gateway-adapter';
import type { HttpApiHandler } from './api-gateway-adapter';
import { createSiteServer, json, type ApiRoute } from './site-server';

export const localBucketName = 'mpc-cheat-sheets';
export const localSenderEmail = 'cheatsheet@example.com';

/** s3rver accepts only this key pair; the other emulators accept any. */
const localCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const localRegion = 'us-east-1';

export interface LocalStackOptions {
  /** Each port defaults to 0, a free one (`npm start` passes the contract's defaults). */
  readonly ports?: Partial<LocalStackPorts>;
  /** The built site; defaults to <cwd>/frontend/dist. Null serves only the API. */
  readonly siteDir?: string | null;
  /** The PDF to upload, as a file path or bytes; defaults to the build's. Null uploads none. */
  readonly cheatSheetPdf?: string | Uint8Array | null;
  readonly senderEmail?: string;
  /** CHEAT_SHEET_DAILY_LIMIT for the send function; unset keeps the environment's or the default. */
  readonly addressDailyCap?: number;
  /** CHEAT_SHEET_CLIENT_HOURLY_LIMIT; unset keeps the environment's or the default. */
  readonly clientHourlySendCap?: number;
  /** CHEAT_SHEET_NETWORK_HOURLY_LIMIT; unset keeps the environment's or the default. */
  readonly networkHourlySendCap?: number;
  /** CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT; unset keeps the environment's or the default. */
  readonly clientHourlySaveCap?: number;
  /** CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT; unset keeps the environment's or the default. */
  readonly networkHourlySaveCap?: number;
  /**
   * CHEAT_SHEET_RECIPIENT_DOMAIN_CHECK; unset keeps the environment's, or `off` when it has none:
   * local runs mail the emulator, and a machine without a network may answer every name NXDOMAIN.
   */
  readonly recipientDomainCheck?: RecipientDomainCheckSetting;
  /** DNS_SERVERS for the check; unset keeps the environment's (none: the system's). */
  readonly dnsServers?: string;
  /**
   * CHEAT_SHEET_CHALLENGE; unset keeps the environment's, or `off` when it has none: local clients
   * of the JSON routes keep their contract unless the proof of work is asked for.
   */
  readonly challenge?: ChallengeSetting;
  /** CHEAT_SHEET_DAILY_SEND_BUDGET; unset keeps the environment's or the default. */
  readonly dailySendBudget?: number;
  /** SES_CONFIGURATION_SET_NAME; none by default, since aws-ses-v2-local has no configuration sets. */
  readonly configurationSetName?: string;
  /**
   * Allows `setEmailFault`. The same front (local/email-fault-injector.ts) always stands between
   * the functions and SES, for the rate and GetAccount; this only says a test drives its faults.
   */
  readonly emailFaultInjection?: boolean;
  /** `SES_MAX_SEND_RATE`: SES refuses sends above this rate a second; unset keeps the environment's (none: no limit). */
  readonly sesMaxSendRate?: number;
  /** `SES_RANDOM_THROTTLE`: the share of sends SES refuses at random; unset keeps the environment's (none: 0). */
  readonly sesRandomThrottle?: number;
  /** Non-fatal problems, such as a missing PDF; defaults to console.warn. */
  readonly onWarning?: (message: string) => void;
  /** The catalogue of functions whose routes are mounted: the real one, unless a test passes a copy. */
  readonly functions?: readonly CatalogueFunction[];
}

export interface LocalStack {
  /** As printed: `http://localhost:<port>/` for site and mail, no trailing slash for DynamoDB and S3. */
  readonly urls: { readonly site: string; readonly mail: string; readonly dynamodb: string; readonly s3: string };
  readonly ports: LocalStackPorts;
  /** The addresses the handlers' SDK clients use. */
  readonly endpoints: { readonly dynamodb: string; readonly s3: string; readonly sesv2: string; readonly sqs: string };
  /** `cheat_sheet_requests`: request items only. */
  readonly tableName: string;
  /** `cheat_sheet_send_quotas`: the limits' counters (per address, per client, the daily send budget). */
  readonly limitCountersTableName: string;
  /** `cheat_sheet_funnel_visitors`: the funnel's salt and visitor marks of the day. */
  readonly funnelVisitorsTableName: string;
  /** s3rver's temporary directory, removed by stop(). */
  readonly s3Directory: string;
  readonly bucket: string;
  readonly key: string;
  /** Makes SES calls fail like real SES; needs `emailFaultInjection: true`. Null passes calls through. */
  setEmailFault(fault: EmailFault | null): void;
  /** Resolves once the send queue is empty and its sender idle: every accepted send was tried. */
  sendsDrained(): Promise<void>;
  /** Closes every server and removes the S3 directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** A taken port, named by the variable that moves it. */
export class LocalStackPortInUseError extends Error {
  override readonly name = 'LocalStackPortInUseError';
  constructor(
    readonly variable: string,
    readonly port: number,
    service: string,
  ) {
    super(
      `Port ${port} is already in use, so the ${service} cannot start. ` +
        `Set ${variable} to a free port, or to 0 to pick one (e.g. ${variable}=0 npm start).`,
    );
  }
}

async function startOn<T>(service: Service, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (error instanceof PortInUseError) {
      throw new LocalStackPortInUseError(portVariables[service], error.port, serviceNames[service]);
    }
    throw error;
  }
}

/** The handlers' environment: the SDK's own variables plus the functions' configuration. */
function setHandlerEnvironment(endpoints: LocalStack['endpoints'], options: LocalStackOptions): void {
  const env = process.env;
  env.AWS_REGION = localRegion;
  env.AWS_ACCESS_KEY_ID = localCredentials.accessKeyId;
  env.AWS_SECRET_ACCESS_KEY = localCredentials.secretAccessKey;
  delete env.AWS_SESSION_TOKEN;
  delete env.AWS_PROFILE;
  env.AWS_EC2_METADATA_DISABLED = 'true';
  // Without these, streamed uploads reach s3rver with aws-chunked framing and are stored corrupt.
  env.AWS_REQUEST_CHECKSUM_CALCULATION = 'WHEN_REQUIRED';
  env.AWS_RESPONSE_CHECKSUM_VALIDATION = 'WHEN_REQUIRED';
  env.AWS_ENDPOINT_URL_DYNAMODB = endpoints.dynamodb;
  env.AWS_ENDPOINT_URL_S3 = endpoints.s3;
  env.AWS_ENDPOINT_URL_SESV2 = endpoints.sesv2;
  env.AWS_ENDPOINT_URL_SQS = endpoints.sqs;
  // The functions run in this process, so one environment holds all their variables (the form
  // function's are the other two's together). A limit not given here keeps the shell's value (npm
  // start honours it) or the function's default.
  // As API Gateway: the socket's peer address (site-server.ts), which no header changes. The
  // deployment's secret (it keys the client counters and every stored hash of an address) is new on
  // every start, as the tables are, unless CLIENT_ADDRESS_KEY is given: `npm run leads -- erase`
  // against the twin needs the same value to find the keyed ids (docs/operate.md).
  const clientAddressKey = env[sendCheatSheetVariables.clientAddressKey]?.trim() || randomBytes(32).toString('base64');
  Object.assign(
    env,
    saveRequestEnvironment({
      tableName: requestsTable.name,
      limitCountersTableName: limitCountersTable.name,
      clientHourlySaveCap: options.clientHourlySaveCap,
      networkHourlySaveCap: options.networkHourlySaveCap,
      clientAddressSource: 'source-ip',
      clientAddressKey,
    }),
    sendCheatSheetEnvironment({
      tableName: requestsTable.name,
      limitCountersTableName: limitCountersTable.name,
      cheatSheetBucket: localBucketName,
      cheatSheetKey: cheatSheetFileName,
      senderEmail: options.senderEmail ?? localSenderEmail,
      addressDailyCap: options.addressDailyCap,
      clientHourlySendCap: options.clientHourlySendCap,
      networkHourlySendCap: options.networkHourlySendCap,
      dailySendBudget: options.dailySendBudget,
      recipientDomainCheck:
        options.recipientDomainCheck ?? (env[sendCheatSheetVariables.recipientDomainCheck] ? undefined : 'off'),
      dnsServers: options.dnsServers,
      challenge: options.challenge ?? (env[sendCheatSheetVariables.challenge] ? undefined : 'off'),
      clientAddressSource: 'source-ip',
      clientAddressKey,
      configurationSetName: options.configurationSetName,
    }),
    // The visit function's only variable the two above lack.
    visitCountEnvironment({
      limitCountersTableName: limitCountersTable.name,
      funnelVisitorsTableName: funnelVisitorsTable.name,
      clientAddressSource: 'source-ip',
      clientAddressKey,
    }),
  );
  if (options.configurationSetName === undefined) delete env[sendCheatSheetVariables.configurationSetName];
}

/** Waits for a new table: createTableMs: 0 makes it ACTIVE on the next tick, but that is not assumed. */
async function waitUntilActive(client: DynamoDBClient, name: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    if (Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`Table ${name} did not become ACTIVE`);
}

/** Every table of `core/data/tables.ts`, empty and ACTIVE. */
async function createTables(endpoint: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: localRegion, credentials: localCredentials });
  try {
    for (const table of tables) await client.send(new CreateTableCommand(createTableInput(table)));
    for (const table of tables) await waitUntilActive(client, table.name);
  } finally {
    client.destroy();
  }
}

async function createBucketWithPdf(endpoint: string, pdf: Uint8Array | null): Promise<void> {
  const client = new S3Client({
    endpoint,
    region: localRegion,
    credentials: localCredentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: localBucketName }));
    if (pdf) {
      await client.send(
        new PutObjectCommand({
          Bucket: localBucketName,
          Key: cheatSheetFileName,
          Body: pdf,
          ContentType: 'application/pdf',
        }),
      );
    }
  } finally {
    client.destroy();
  }
}

async function readPdf(source: LocalStackOptions['cheatSheetPdf'], warn: (message: string) => void) {
  if (source === null) return null;
  if (source instanceof Uint8Array) return source;
  const filePath = source ?? path.resolve(buildOutput.cheatSheetDirectory, buildOutput.cheatSheetFile);
  try {
    return new Uint8Array(await readFile(filePath));
  } catch {
    warn(`No cheat-sheet PDF at ${filePath}: run npm run build:pdf. Until then sending replies 503.`);
    return null;
  }
}

/** How a route refuses a request itself: its entry's failure body, or the form's page. */
function refusalOf(route: ProductRoute<string>): ApiRoute['refusal'] {
  const { reply } = route;
  if (reply.kind === 'json') return (failure) => json(failure.statusCode, reply.failureBody.of(failure));
  // The beacon's handler answers every request itself (its GIF); a refusal before it is a status alone.
  if (reply.kind === 'beacon') return (failure) => fromHandlerResult({ statusCode: failure.statusCode });
  return (failure) => fromHandlerResult(refusalPage(failure.statusCode, failure.message, route));
}

/**
 * Every route of the catalogue (core/api/catalogue/functions.ts, or a test's copy of it), as API
 * Gateway routes them: its handler imported from its entry (after the environment is set: the
 * handlers read it on import).
 */
async function mountRoutes(routeList: readonly ProductRoute<string>[]): Promise<Record<string, ApiRoute>> {
  const routes: Record<string, ApiRoute> = {};
  for (const route of routeList) {
    const { handler } = (await import(path.resolve(route.entry))) as { handler: HttpApiHandler };
    routes[route.path] = {
      functionName: route.logService,
      timeoutSeconds: route.timeoutSeconds,
      method: route.method,
      handler,
      refusal: refusalOf(route),
    };
  }
  return routes;
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const ports = { site: 0, mail: 0, dynamodb: 0, s3: 0, ...options.ports };
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  const siteDir = options.siteDir === undefined ? path.resolve(buildOutput.siteDirectory) : options.siteDir;

  // Everything started so far, closed in reverse order by stop() or by a failed start.
  const closers: Array<() => Promise<void>> = [];
  const stop = async () => {
    const pending = closers.splice(0).reverse();
    for (const close of pending) await close().catch((error) => warn(`While stopping: ${String(error)}`));
  };

  try {
    const dynamodb = await startOn('dynamodb', () => startDynamoDbEmulator(ports.dynamodb));
    closers.push(() => dynamodb.close());

    const s3Directory = await mkdtemp(path.join(os.tmpdir(), 'mpc-s3rver-'));
    closers.push(() => rm(s3Directory, { recursive: true, force: true }));
    const s3 = await startOn('s3', () => startS3Emulator(ports.s3, s3Directory));
    closers.push(() => s3.close());

    const mail = await startOn('mail', () => startSesEmulator(ports.mail));
    closers.push(() => mail.close());

    const faultInjector: EmailFaultInjector = await startEmailFaultInjector(mail.url, 0, sesLimitsOf(options));
    closers.push(() => faultInjector.close());
    const sendQueue = await startLocalSendQueue();
    closers.push(() => sendQueue.close());

    const endpoints = { dynamodb: dynamodb.url, s3: s3.url, sesv2: faultInjector.url, sqs: sendQueue.url };
    await createTables(endpoints.dynamodb);
    await createBucketWithPdf(endpoints.s3, await readPdf(options.cheatSheetPdf, warn));

    setHandlerEnvironment(endpoints, options);
    process.env[sendCheatSheetVariables.sendQueueUrl] = sendQueue.queueUrl;
    sendQueue.start(await importQueuedSender());
    const server: http.Server = createSiteServer({
      siteDir,
      apiRoutes: await mountRoutes(routesOf(options.functions ?? functionList)),
    });
    const sitePort = await startOn('site', () => listen(server, ports.site, emulatorHost));
    closers.push(() => closeServer(server));

    const actualPorts: LocalStackPorts = { site: sitePort, mail: mail.port, dynamodb: dynamodb.port, s3: s3.port };
    return {
      urls: {
        site: `http://localhost:${sitePort}/`,
        mail: `http://localhost:${mail.port}/`,
        dynamodb: `http://localhost:${dynamodb.port}`,
        s3: `http://localhost:${s3.port}`,
      },
      ports: actualPorts,
      endpoints,
      tableName: requestsTable.name,
      limitCountersTableName: limitCountersTable.name,
      funnelVisitorsTableName: funnelVisitorsTable.name,
      s3Directory,
      bucket: localBucketName,
      key: cheatSheetFileName,
      setEmailFault(fault) {
        if (!options.emailFaultInjection)
          throw new Error('Start the local stack with emailFaultInjection: true to inject SES faults');
        faultInjector.setFault(fault);
      },
      sendsDrained: () => sendQueue.drained(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type { EmailFault, RunningServer };
