/**
 * Starts the whole product as an ops engineer would (`npm start`'s script), on free ports, and
 * reads the endpoints from what it prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';

export interface LocalProduct {
  readonly site: string;
  readonly mail: string;
  readonly dynamodb: string;
  readonly s3: string;
  /** Everything the process printed so far. */
  readonly output: () => string;
  readonly stop: () => Promise<void>;
}

const startTimeoutMs = 60_000;

export async function startLocalProduct(extraEnv: Record<string, string> = {}): Promise<LocalProduct> {
  const tsx = path.join(process.cwd(), 'node_modules/.bin/tsx');
  const child: ChildProcess = spawn(tsx, ['local/start.ts'], {
    cwd: process.cwd(),
    env: { ...process.env, PORT: '0', MAIL_PORT: '0', DYNAMODB_PORT: '0', S3_PORT: '0', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));

  const endpoint = (label: string) => output.match(new RegExp(`^${label}:\\s+(\\S+)$`, 'm'))?.[1];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };

  const deadline = Date.now() + startTimeoutMs;
  while (!(endpoint('Site') && endpoint('Mail') && endpoint('DynamoDB') && endpoint('S3'))) {
    if (child.exitCode !== null) throw new Error(`local/start.ts exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`local/start.ts printed no endpoints within ${startTimeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  // The browser resolves no host names (see browser.ts), so it is sent to the loopback address.
  const loopback = (url: string) => url.replace('//localhost:', '//127.0.0.1:');
  return {
    site: loopback(endpoint('Site')!),
    mail: endpoint('Mail')!,
    dynamodb: endpoint('DynamoDB')!,
    s3: endpoint('S3')!,
    output: () => output,
    stop,
  };
}

/** The running product and browser of one test file, set up before its tests and ended after. */
export interface ProductInBrowser {
  readonly product: LocalProduct;
  readonly browser: Browser;
}

export function useProductInBrowser(): ProductInBrowser {
  const running = {} as { product: LocalProduct; browser: Browser };
  beforeAll(async () => {
    [running.product, running.browser] = await Promise.all([startLocalProduct(), launchBrowser()]);
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.product?.stop();
  });
  return running;
}
