/**
 * The whole product as an ops engineer starts it (`npm start`'s script), on free ports, with the
 * endpoints read from what it prints. The e2e global setup starts it once for every test file
 * (test/e2e/support/global-setup.ts); each file reaches it through `useProductInBrowser()`.
 */
import type { Browser } from 'playwright-core';
import { freePorts, spawnScript } from '../../support/spawned-script';
import { connectBrowser } from './browser';

export interface LocalProduct {
  readonly site: string;
  readonly mail: string;
  readonly dynamodb: string;
  readonly s3: string;
  readonly stop: () => Promise<void>;
}

const startTimeoutMs = 60_000;

/**
 * Every browser test sends from this one machine, and all of them from one product: the per-client
 * and per-network limits (10 and 30 sends, 20 and 60 saves an hour) would refuse them, so they are
 * raised here as an operator would; the limits have their own tests (test/local, test/lambdas).
 */
const sharedMachineLimits = {
  CHEAT_SHEET_CLIENT_HOURLY_LIMIT: '1000',
  CHEAT_SHEET_NETWORK_HOURLY_LIMIT: '1000',
  CHEAT_SHEET_CLIENT_HOURLY_SAVE_LIMIT: '1000',
  CHEAT_SHEET_NETWORK_HOURLY_SAVE_LIMIT: '1000',
};

/**
 * The proof of work on, as the stack deploys it (npm start's default is off, for local clients of
 * the JSON routes): every browser test then sends through the page's challenge and solver, and
 * the form without script shows it is never asked for one.
 */
const asDeployed = { CHEAT_SHEET_CHALLENGE: 'on' };

export async function startLocalProduct(): Promise<LocalProduct> {
  const script = spawnScript('local/start.ts', { ...freePorts, ...sharedMachineLimits, ...asDeployed });
  const stop = async () => {
    if (script.child.exitCode === null && script.child.signalCode === null) script.child.kill('SIGTERM');
    await script.exited;
  };
  const printed = () => script.stdout() + script.stderr();

  let lines: string[];
  try {
    lines = await script.lines(4, startTimeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  const endpoint = (label: string) => {
    const url = lines.map((line) => line.match(new RegExp(`^${label}:\\s+(\\S+)$`))?.[1]).find(Boolean);
    if (!url) throw new Error(`local/start.ts printed no ${label} line:\n${printed()}`);
    return url;
  };

  // The browser resolves no host names (see browser.ts), so it is sent to the loopback address.
  const loopback = (url: string) => url.replace('//localhost:', '//127.0.0.1:');
  return {
    site: loopback(endpoint('Site')),
    mail: endpoint('Mail'),
    dynamodb: endpoint('DynamoDB'),
    s3: endpoint('S3'),
    stop,
  };
}

/** What the global setup hands every test file, through the environment. */
export interface SharedProduct {
  readonly site: string;
  readonly mail: string;
  readonly dynamodb: string;
  readonly s3: string;
  /** The shared Chromium's address, for `chromium.connect`. */
  readonly browserEndpoint: string;
}

export const sharedProductVariable = 'E2E_SHARED_PRODUCT';

/** The running product and a connection to the shared browser, for one test file. */
export interface ProductInBrowser {
  readonly product: Omit<LocalProduct, 'stop'>;
  readonly browser: Browser;
}

export function useProductInBrowser(): ProductInBrowser {
  const running = {} as { product: ProductInBrowser['product']; browser: Browser };
  beforeAll(async () => {
    const shared = process.env[sharedProductVariable];
    if (!shared) throw new Error('No shared product: the e2e tests run in jest\'s "e2e" project (npm run test:e2e).');
    const { browserEndpoint, ...endpoints } = JSON.parse(shared) as SharedProduct;
    running.product = endpoints;
    running.browser = await connectBrowser(browserEndpoint);
  });
  afterAll(async () => {
    // Ends this file's connection; the browser itself is the global teardown's.
    await running.browser?.close();
  });
  return running;
}
