/**
 * The twin's queued sender and its SES: the catalogue's queued-send handler (imported once the
 * environment is set, as the routes' are) and the local SES's limits, from the options or from
 * `SES_MAX_SEND_RATE` and `SES_RANDOM_THROTTLE`, which `npm start` honours.
 */

import path from 'node:path';
import { catalogueFunctions } from '../core/api/catalogue/functions';
import type { SesLimits } from './email-fault-injector';
import type { QueuedSendHandler } from './send-queue';

/** The variables `npm start` reads for its SES. */
export const sesLimitVariables = { maxSendRate: 'SES_MAX_SEND_RATE', randomThrottle: 'SES_RANDOM_THROTTLE' } as const;

function numberFrom(name: string, value: string | undefined, valid: (n: number) => boolean): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  if (!valid(parsed))
    throw new Error(
      `${name} must be ${name === sesLimitVariables.maxSendRate ? 'a positive number' : 'a number from 0 to 1'}: ${value}`,
    );
  return parsed;
}

export function sesLimitsOf(
  options: { readonly sesMaxSendRate?: number; readonly sesRandomThrottle?: number },
  env: NodeJS.ProcessEnv = process.env,
): SesLimits {
  const maxSendRate =
    options.sesMaxSendRate ??
    numberFrom(sesLimitVariables.maxSendRate, env[sesLimitVariables.maxSendRate], (n) => n > 0);
  const randomThrottle =
    options.sesRandomThrottle ??
    numberFrom(sesLimitVariables.randomThrottle, env[sesLimitVariables.randomThrottle], (n) => n >= 0 && n <= 1);
  return {
    ...(maxSendRate !== undefined && { maxSendRate }),
    ...(randomThrottle !== undefined && { randomThrottle }),
  };
}

export async function importQueuedSender(): Promise<QueuedSendHandler> {
  const { handler } = (await import(path.resolve(catalogueFunctions.queuedSend.entry))) as {
    handler: QueuedSendHandler;
  };
  return handler;
}
