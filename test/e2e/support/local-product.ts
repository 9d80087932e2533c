/**
 * Starts the whole product as an ops engineer would (`npm start`'s script), on free ports, and
 * reads the endpoints from what it prints.
 */
import type { Browser } from 'playwright-core';
import { freePorts, spawnScript } from '../../support/spawned-script';
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
  const script = spawnScript('local/start.ts', {
    ...freePorts,
    // Every browser test sends from this one machine: the per-client limit (10 an hour) would
    // refuse them, so it is raised here as an operator would; the limit has its own tests.
    CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '1000',
    ...extraEnv,
  });
  const stop = async () => {
    if (script.child.exitCode === null && script.child.signalCode === null) script.child.kill('SIGTERM');
    await script.exited;
  };
  const output = () => script.stdout() + script.stderr();

  let lines: string[];
  try {
    lines = await script.lines(4, startTimeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  const endpoint = (label: string) => {
    const url = lines.map((line) => line.match(new RegExp(`^${label}:\\s+(\\S+)$`))?.[1]).find(Boolean);
    if (!url) throw new Error(`local/start.ts printed no ${label} line:\n${output()}`);
    return url;
  };

  // The browser resolves no host names (see browser.ts), so it is sent to the loopback address.
  const loopback = (url: string) => url.replace('//localhost:', '//127.0.0.1:');
  return {
    site: loopback(endpoint('Site')),
    mail: endpoint('Mail'),
    dynamodb: endpoint('DynamoDB'),
    s3: endpoint('S3'),
    output,
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
