/**
 * The account's Lambda concurrency quota (GetAccountSettings). New accounts start at 10, far
 * below the 1,000 the account-concurrency alarm assumes unless told (`accountConcurrencyLimit`),
 * and too few for a burst of readers; below 100 the quota increase is worth asking for first.
 */

import { GetAccountSettingsCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { concurrencyNeeded } from '../../core/config/launch-capacity';
import { describeError } from './aws-errors';
import type { CheckResult } from './check-result';

/** Below this a launch-day burst throttles: 10 concurrent functions answer roughly 100 requests a second. */
export const lowConcurrencyQuota = 100;

const quotaRequest =
  'request 1000 in Service Quotas > AWS Lambda > Concurrent executions (L-B99A9384): ' +
  'aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384 --desired-value 1000';

/**
 * Fails while the quota is below what the stage's rate needs (`concurrencyNeeded`: its requests at
 * 0.2 s each, plus the queues' functions), since Lambda would then throttle readers the API took;
 * warns below 100, which no reserved concurrency could be deployed under.
 */
export async function checkLambdaConcurrency(
  lambda: LambdaClient,
  {
    region,
    accountConcurrencyLimit,
    apiRateLimit,
  }: { region: string; accountConcurrencyLimit?: number; apiRateLimit: number },
): Promise<CheckResult> {
  const name = 'Lambda concurrency';
  let quota: number | undefined;
  try {
    quota = (await lambda.send(new GetAccountSettingsCommand({}))).AccountLimit?.ConcurrentExecutions;
  } catch (error) {
    return {
      name,
      status: 'WARN',
      detail: `could not read the account settings in ${region}: ${describeError(error)}`,
    };
  }
  if (quota === undefined) return { name, status: 'WARN', detail: `Lambda reported no concurrency quota in ${region}` };

  const needed = concurrencyNeeded(apiRateLimit);
  if (quota < needed) {
    return {
      name,
      status: 'FAIL',
      detail: `the account's concurrency quota in ${region} is ${quota}, below the ${needed} the API's ${apiRateLimit} requests a second need`,
      fix: `${quotaRequest}; or lower -c apiRateLimit (and the routes' rates) until it is granted.`,
    };
  }
  if (quota < lowConcurrencyQuota) {
    return {
      name,
      status: 'WARN',
      detail: `the account's concurrency quota in ${region} is ${quota}, below ${lowConcurrencyQuota}`,
      fix: `${quotaRequest}; until it is granted, deploy with -c accountConcurrencyLimit=${quota} so the concurrency alarm fits.`,
    };
  }
  if (accountConcurrencyLimit !== undefined && accountConcurrencyLimit !== quota) {
    return {
      name,
      status: 'WARN',
      detail: `the account's concurrency quota in ${region} is ${quota}, but accountConcurrencyLimit is ${accountConcurrencyLimit}`,
      fix: `pass -c accountConcurrencyLimit=${quota} so the concurrency alarm's threshold (80%) fits the account.`,
    };
  }
  return { name, status: 'PASS', detail: `the account's concurrency quota in ${region} is ${quota}` };
}
