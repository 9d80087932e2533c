/**
 * What the first reader waits for: a fresh Node process that imports a function's bundle (built
 * as the stack builds it) and runs its first invocation against the local twin's emulators, with
 * the function's NODE_OPTIONS, timed from spawn to exit. Against the same for its floor: a
 * minimal handler, bundled the same way, that creates the same SDK clients and makes the same
 * calls (recorded from the function's own first invocation) and nothing else. The ratio of the
 * two is what the product's own code (Powertools, validation, the domain) adds to a cold start.
 */

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLocalStack } from '../local-stack';
import { coldStartOriginSecret, measuredFunctions, type MeasuredFunction } from './first-invocations';
import { startRecordingProxy, type RecordedRequest, type RecordingProxy } from './recording-proxy';
import {
  callName,
  floorHandlerSource,
  recordedServices,
  sdkCallOf,
  type RecordedService,
  type SdkCall,
} from './sdk-calls';

export interface ColdStartRow {
  readonly name: string;
  /** Median, in ms, of the function's first reply in a fresh process. */
  readonly firstReplyMs: number;
  /** Median, in ms, of its floor's. */
  readonly floorMs: number;
  /** Median of the pairs' ratios. */
  readonly ratio: number;
  /** Median of the pairs' ratios of CPU time (user and system) in the two processes. */
  readonly cpuRatio: number;
  /** Medians of the function's init (process start to bundle imported) and first invocation, in ms. */
  readonly initMs: number;
  readonly invokeMs: number;
  /** The same for the floor. */
  readonly floorInitMs: number;
  readonly floorInvokeMs: number;
  /** `SERVICE/Command` of each SDK call of the first invocation, in order. */
  readonly calls: readonly string[];
  /** The same, as the floor made them: equal to `calls`, or the measurement fails. */
  readonly floorCalls: readonly string[];
}

/** How the stack bundles a function (infra/function-bundle.ts), given by the caller: the local twin knows no CDK app. */
export interface FunctionBundler {
  bundleFunction(input: { readonly entry: string; readonly outdir: string; readonly projectRoot: string }): void;
  /** The file Lambda imports, in the bundle's folder. */
  readonly functionEntryFile: string;
  /** The functions' NODE_OPTIONS. */
  readonly functionNodeOptions: string;
}

export interface ColdStartOptions {
  readonly bundler: FunctionBundler;
  readonly pairs: number;
  /** Only these functions (by name); all by default. */
  readonly only?: readonly string[];
  readonly projectRoot?: string;
  readonly onRow?: (row: ColdStartRow) => void;
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Imports the bundle, invokes its handler once as Lambda would, prints the reply's status, exits. */
const firstInvocationScript = `
const { handler } = await import(process.env.COLD_START_BUNDLE);
const importedAt = performance.now();
const event = JSON.parse(process.env.COLD_START_EVENT);
const deadline = Date.now() + 30000;
const context = {
  functionName: 'cold-start', functionVersion: '$LATEST', memoryLimitInMB: '256',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:cold-start',
  awsRequestId: crypto.randomUUID(), logGroupName: 'cold-start', logStreamName: 'cold-start',
  callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => deadline - Date.now(),
};
const reply = await handler(event, context);
const repliedAt = performance.now();
const { user, system } = process.cpuUsage();
process.stdout.write('\\n' + JSON.stringify({ statusCode: reply?.statusCode ?? null, cpuMs: (user + system) / 1000, initMs: importedAt, invokeMs: repliedAt - importedAt }) + '\\n');
process.exit(0);
`;

interface Invocation {
  /** Wall time from spawn to exit. */
  readonly ms: number;
  /** The process's own CPU time (user and system) up to its reply: less moved by other load. */
  readonly cpuMs: number;
  /** From the process's start to the bundle imported: Lambda's init phase. */
  readonly initMs: number;
  /** The first invocation itself. */
  readonly invokeMs: number;
  readonly statusCode: number | null;
}

function invokeFresh(entryFile: string, event: unknown, env: NodeJS.ProcessEnv): Promise<Invocation> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--input-type=module', '-e', firstInvocationScript], {
      env: {
        ...env,
        COLD_START_BUNDLE: pathToFileURL(entryFile).href,
        COLD_START_EVENT: JSON.stringify(event),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) {
        reject(new Error(`The first invocation of ${entryFile} exited with ${code}:\n${stderr}`));
        return;
      }
      const last = stdout.trim().split('\n').pop() ?? '{}';
      resolve({ ms, ...(JSON.parse(last) as Omit<Invocation, 'ms'>) });
    });
  });
}

const quietInProcess = { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' };

/** The local twin's emulators behind recording proxies: every SDK call of a child lands in `log`. */
/**
 * Secrets Manager, which no emulator covers: the deployment's secret (the origin secret the
 * challenge function reads, as deployed), and `{}` for any other secret.
 */
function secretsManagerAnswer(request: RecordedRequest): string {
  const { SecretId } = JSON.parse(request.body.toString('utf8') || '{}') as { SecretId?: string };
  return SecretId === coldStartOriginSecret.arn
    ? JSON.stringify({ ARN: SecretId, Name: 'cold-start-origin', SecretString: coldStartOriginSecret.value })
    : '{}';
}

async function startStandIns(nodeOptions: string) {
  const limitsOutOfReach = 1_000_000;
  const loudEnv = Object.fromEntries(Object.keys(quietInProcess).map((name) => [name, process.env[name]]));
  Object.assign(process.env, quietInProcess);
  const stack = await startLocalStack({
    siteDir: null,
    addressDailyCap: limitsOutOfReach,
    clientHourlySendCap: limitsOutOfReach,
    networkHourlySendCap: limitsOutOfReach,
    clientHourlySaveCap: limitsOutOfReach,
    networkHourlySaveCap: limitsOutOfReach,
    dailySendBudget: limitsOutOfReach,
    onWarning: () => undefined,
  });
  // Beside the emulators: the untimed steps before an invocation (the save before a send).
  const log: { service: RecordedService; request: RecordedRequest }[] = [];
  const targets: Record<RecordedService, string | null> = {
    DYNAMODB: stack.endpoints.dynamodb,
    S3: stack.endpoints.s3,
    SESV2: stack.endpoints.sesv2,
    SECRETS_MANAGER: null,
    SQS: null,
  };
  const proxies: RecordingProxy[] = [];
  const endpoints: Record<string, string> = {};
  for (const service of recordedServices) {
    const proxy = await startRecordingProxy(
      targets[service],
      (request) => log.push({ service, request }),
      // aws-ses-v2-local takes SendEmail only; the pause function's call gets the stand-in's `{}`.
      service === 'SESV2' ? (request) => request.url.startsWith('/v2/email/outbound-emails') : undefined,
      service === 'SECRETS_MANAGER' ? secretsManagerAnswer : undefined,
    );
    proxies.push(proxy);
    endpoints[`AWS_ENDPOINT_URL_${service}`] = proxy.url;
  }
  const baseEnv: NodeJS.ProcessEnv = { ...process.env, ...endpoints, NODE_OPTIONS: nodeOptions };
  // The untimed saves ran in this process, quietly; the measured functions log as in Lambda.
  for (const [name, value] of Object.entries(loudEnv)) {
    if (value === undefined) delete baseEnv[name];
    else baseEnv[name] = value;
  }
  const byService = Object.fromEntries(
    recordedServices.map((service) => [service, endpoints[`AWS_ENDPOINT_URL_${service}`]]),
  );
  return {
    log,
    byService,
    apiUrl: stack.urls.site,
    baseEnv,
    async stop() {
      for (const proxy of proxies) await proxy.close();
      await stack.stop();
      for (const [name, value] of Object.entries(loudEnv)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}

/** Measures each function against its floor, `pairs` alternating pairs each. */
export async function measureColdStarts(options: ColdStartOptions): Promise<ColdStartRow[]> {
  const projectRoot = options.projectRoot ?? process.cwd();
  const functions = measuredFunctions().filter((fn) => !options.only || options.only.includes(fn.name));
  const outdir = mkdtempSync(path.join(tmpdir(), 'cold-start-'));
  const floorSources = mkdtempSync(path.join(projectRoot, 'node_modules', '.cold-start-floors-'));
  const { bundler } = options;
  const standIns = await startStandIns(bundler.functionNodeOptions);
  const rows: ColdStartRow[] = [];
  try {
    let run = 0;
    for (const fn of functions) {
      const env = { ...standIns.baseEnv, AWS_LAMBDA_FUNCTION_NAME: fn.name, ...fn.environment?.(standIns.byService) };
      bundler.bundleFunction({ entry: fn.entry, outdir: path.join(outdir, fn.name), projectRoot });
      const bundle = path.join(outdir, fn.name, bundler.functionEntryFile);

      // One run: its untimed step before (if any), then a fresh process timed from spawn to exit.
      const invoke = async (entryFile: string) => {
        const thisRun = ++run;
        await fn.before?.(thisRun, standIns.apiUrl);
        standIns.log.length = 0;
        return invokeFresh(entryFile, fn.event(thisRun), env);
      };
      // The function's own calls, recorded on a first invocation of its own.
      const recorded = await invoke(bundle);
      assertAnswered(fn, recorded);
      const calls: SdkCall[] = standIns.log.map(({ service, request }) => sdkCallOf(service, request));

      // Inside the project, so the floor's imports resolve from its node_modules as the function's do.
      const floorSourceDir = path.join(floorSources, fn.name);
      mkdirSync(floorSourceDir, { recursive: true });
      const floorEntry = path.join(floorSourceDir, 'handler.mjs');
      writeFileSync(floorEntry, floorHandlerSource(calls));
      bundler.bundleFunction({ entry: floorEntry, outdir: path.join(outdir, `${fn.name}-floor`), projectRoot });
      const floor = path.join(outdir, `${fn.name}-floor`, bundler.functionEntryFile);
      await invoke(floor);
      const floorCalls = standIns.log.map(({ service, request }) => callName(sdkCallOf(service, request)));
      if (floorCalls.join() !== calls.map(callName).join()) {
        throw new Error(`${fn.name}'s floor made ${floorCalls.join(', ')}, not ${calls.map(callName).join(', ')}`);
      }

      const pairs: { function: Invocation; floor: Invocation }[] = [];
      for (let pair = 0; pair < options.pairs; pair++) {
        // Alternating which goes first, so a drift in the machine's load falls on both alike.
        const invokeFunction = () => invoke(bundle);
        const invokeFloor = () => invoke(floor);
        if (pair % 2 === 0) {
          const functionRun = await invokeFunction();
          pairs.push({ function: functionRun, floor: await invokeFloor() });
        } else {
          const floorRun = await invokeFloor();
          pairs.push({ function: await invokeFunction(), floor: floorRun });
        }
      }
      const row: ColdStartRow = {
        name: fn.name,
        firstReplyMs: median(pairs.map((p) => p.function.ms)),
        floorMs: median(pairs.map((p) => p.floor.ms)),
        ratio: median(pairs.map((p) => p.function.ms / p.floor.ms)),
        cpuRatio: median(pairs.map((p) => p.function.cpuMs / p.floor.cpuMs)),
        initMs: median(pairs.map((p) => p.function.initMs)),
        invokeMs: median(pairs.map((p) => p.function.invokeMs)),
        floorInitMs: median(pairs.map((p) => p.floor.initMs)),
        floorInvokeMs: median(pairs.map((p) => p.floor.invokeMs)),
        calls: calls.map(callName),
        floorCalls,
      };
      rows.push(row);
      options.onRow?.(row);
    }
  } finally {
    await standIns.stop();
    rmSync(outdir, { recursive: true, force: true });
    rmSync(floorSources, { recursive: true, force: true });
  }
  return rows;
}

/** A route's first reply must be its success: a refusal would time a shorter path than a reader's. */
function assertAnswered(fn: MeasuredFunction, invocation: Invocation): void {
  if (invocation.statusCode !== null && invocation.statusCode >= 400) {
    throw new Error(`${fn.name}'s first invocation answered ${invocation.statusCode}, not a success`);
  }
}
