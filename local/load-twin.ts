/**
 * The local twin `npm run load` starts when it is given no site: the API and its emulators on free
 * ports, the built PDF (`npm run build:pdf`), and the per-client and per-network caps (sends and saves) raised
 * by their variables so that every reader, all from 127.0.0.1, is counted as one reader of its own
 * would be; the daily send budget stays the environment's or its default, and SES's rate is
 * `SES_MAX_SEND_RATE` (with `SES_RANDOM_THROTTLE`), as `npm start` reads them.
 */

import { startLocalStack, type LocalStack } from './local-stack';

export async function startLoadTwin(readers: number): Promise<LocalStack> {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const cap = readers + 10;
  return startLocalStack({
    siteDir: null,
    clientHourlySendCap: cap,
    networkHourlySendCap: cap,
    clientHourlySaveCap: cap,
    networkHourlySaveCap: cap,
  });
}
