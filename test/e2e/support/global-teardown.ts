/** Ends what the global setup started, whether the tests passed or not. */
import { runningE2e } from './running-e2e';

export default async function globalTeardown(): Promise<void> {
  const running = runningE2e.take();
  if (!running) return;
  await Promise.allSettled([running.browserServer.close(), running.product.stop()]);
}
