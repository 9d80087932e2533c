/**
 * Once for the whole e2e project: the local product (`npm start`'s script, on free ports) and one
 * Chromium, shared by every test file. Each file used to start its own pair: seven product starts
 * and seven browser launches on CI's two cores. Test files keep apart by their own addresses.
 */
import { launchBrowserServer } from './browser';
import { sharedProductVariable, startLocalProduct, type SharedProduct } from './local-product';
import { runningE2e } from './running-e2e';

export default async function globalSetup(): Promise<void> {
  const [started, launched] = await Promise.allSettled([startLocalProduct(), launchBrowserServer()]);
  if (started.status === 'rejected' || launched.status === 'rejected') {
    // Whichever did start is ended here: no teardown runs after a failed setup.
    await Promise.allSettled([
      started.status === 'fulfilled' ? started.value.stop() : undefined,
      launched.status === 'fulfilled' ? launched.value.close() : undefined,
    ]);
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
  const [product, browserServer] = [started.value, launched.value];
  runningE2e.set({ product, browserServer });
  const shared: SharedProduct = {
    site: product.site,
    mail: product.mail,
    dynamodb: product.dynamodb,
    s3: product.s3,
    browserEndpoint: browserServer.wsEndpoint(),
  };
  // Jest's workers start after the global setup, with its environment.
  process.env[sharedProductVariable] = JSON.stringify(shared);
}
