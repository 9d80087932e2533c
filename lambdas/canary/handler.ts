/**
 * The canary, invoked every 5 minutes by an EventBridge schedule: a reader the stack sends itself,
 * through the site's public address (lambdas/canary-check/canary-check.ts), its requests marked as
 * the canary's (core/data/canary-mark.ts). A run that finds a step failing fails its invocation:
 * the function's Errors metric, free, is what the objectives' alarms read (two failed runs in a
 * row page; infra/constructs/monitoring/slo-alarms.ts).
 */

import type { Context, ScheduledEvent } from 'aws-lambda';
import { canaryMarkKeyFrom } from '../../core/data/canary-mark';
import { tableName as requestsTableName } from '../../core/data/tables';
import { runCanaryCheck } from '../canary-check/canary-check';
import { loadOriginSecret } from '../http/origin-secret';
import { dynamoDb, secretsManager } from '../runtime/aws-clients';
import { readDeploymentSecret } from '../runtime/config';
import { createLogger } from '../runtime/logger';
import { canaryRunName, canarySlot, canaryVariables, earlierDelivery, sendsAt } from './canary-run';

const logger = createLogger('canary');

export async function handler(event?: Partial<Pick<ScheduledEvent, 'time'>>, context?: Context): Promise<void> {
  if (context) logger.addContext(context);
  const siteUrl = process.env[canaryVariables.siteUrl]?.trim();
  const secret = readDeploymentSecret();
  if (!siteUrl || !secret) {
    throw new Error(`The canary is not configured: ${canaryVariables.siteUrl} and the deployment's secret are needed`);
  }
  const table = process.env[canaryVariables.tableName]?.trim() || requestsTableName;
  const slot = canarySlot(event?.time ? new Date(event.time) : new Date());
  const deploymentSecret =
    'key' in secret ? secret.key : await loadOriginSecret(secretsManager, secret.originSecretArn);
  // Read first: a run after a send that failed or went undelivered sends again, so a sending outage
  // meets a refused send (a 5xx) every 5 minutes, not every 30.
  const earlier = await earlierDelivery(dynamoDb, table, slot).catch((error: unknown) => ({
    ok: false,
    detail: `the requests table could not be read: ${error instanceof Error ? error.message : String(error)}`,
  }));
  const steps = await runCanaryCheck({
    siteUrl,
    run: canaryRunName(slot),
    markKey: canaryMarkKeyFrom(deploymentSecret),
    send: sendsAt(slot) || !earlier.ok,
    earlierDelivery: () => Promise.resolve(earlier),
  });
  const failed = steps.filter(({ ok }) => !ok);
  for (const { name, ok, detail } of steps) {
    if (ok) logger.info(`Canary ${name}`, { ok, detail });
    else logger.error(`Canary ${name}`, { ok, detail });
  }
  if (failed.length > 0)
    throw new Error(`The canary failed: ${failed.map(({ name, detail }) => `${name} (${detail})`).join('; ')}`);
}
