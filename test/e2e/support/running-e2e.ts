/**
 * What the e2e global setup started, for the global teardown: both run in jest's parent process,
 * which keeps one module registry per project for them, so the handles live on `globalThis`.
 */
import type { BrowserServer } from 'playwright-core';
import type { LocalProduct } from './local-product';

interface RunningE2e {
  readonly product: LocalProduct;
  readonly browserServer: BrowserServer;
}

const key = Symbol.for('first-100-days-site.e2e');
const store = globalThis as unknown as Record<symbol, RunningE2e | undefined>;

export const runningE2e = {
  set(running: RunningE2e): void {
    store[key] = running;
  },
  take(): RunningE2e | undefined {
    const running = store[key];
    store[key] = undefined;
    return running;
  },
};
