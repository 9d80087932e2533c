/**
 * `npm run smoke -- <site URL> [--stack NAME] [--canary]`: the site checks, and with `--stack` the
 * deployment's SES checks (the site URL then defaults to the stack's SiteUrl). With `--canary`,
 * the canary's check instead of the site checks (lambdas/canary-check/): a whole request, marked as
 * the canary's with a key of the deployment's secret (the stack's with `--stack`, else
 * `CLIENT_ADDRESS_KEY` or `ORIGIN_SECRET_ARN`, as the functions read it), sent to the SES mailbox
 * simulator. Exit code 0 only when every check holds, 1 when one fails, 2 for a usage error. In a
 * GitHub job the report goes to the job's summary too (job-summary.ts).
 */

import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { canaryMarkKeyFrom, type CanaryMarkKey } from '../../core/data/canary-mark';
import { runCanaryCheck } from '../../lambdas/canary-check/canary-check';
import { loadOriginSecret } from '../../lambdas/http/origin-secret';
import { deploymentSecretMissing, deploymentSecretOf } from '../leads/deployment-secret';
import { appendJobSummary } from './job-summary';
import { runDeploymentChecks, type DeploymentClients } from './deployment-checks';
import { formatReport, runSiteChecks, type CheckResult } from './site-checks';

export const usage =
  'Usage: npm run smoke -- <site URL> [--stack NAME] [--canary]   (with --stack the URL defaults to its SiteUrl)';

export interface SmokeCommandIo {
  readonly print: (text: string) => void;
  /** The AWS clients for `--stack`. @default clients from the environment's credentials and region */
  readonly clients?: () => DeploymentClients;
  /**
   * Where `--canary` finds the deployment's secret without `--stack`, and GITHUB_STEP_SUMMARY, the
   * file a GitHub job's summary is appended to. @default process.env
   */
  readonly env?: NodeJS.ProcessEnv;
}

const defaultClients = (): DeploymentClients => ({
  cloudFormation: new CloudFormationClient({}),
  ses: new SESv2Client({}),
});

export async function runSmokeCommand(args: readonly string[], io: SmokeCommandIo): Promise<number> {
  let url: string | undefined;
  let stackName: string | undefined;
  let canary: boolean;
  try {
    const parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { stack: { type: 'string' }, canary: { type: 'boolean' } },
    });
    canary = parsed.values.canary ?? false;
    if (parsed.positionals.length > 1) throw new Error('one site URL at most');
    url = parsed.positionals[0];
    stackName = parsed.values.stack;
    if (url !== undefined && !/^https?:\/\//.test(url)) throw new Error(`"${url}" is not an http(s) URL`);
  } catch (error) {
    io.print(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  if (url === undefined && stackName === undefined) {
    io.print(usage);
    return 2;
  }

  const results: CheckResult[] = [];
  const clients = stackName === undefined ? undefined : (io.clients ?? defaultClients)();
  let markKey: CanaryMarkKey | undefined;
  if (canary) {
    const secret = await deploymentSecretOf(
      clients?.cloudFormation as CloudFormationClient,
      stackName,
      io.env ?? process.env,
    );
    if (!secret) {
      io.print(`--canary: ${deploymentSecretMissing}\n${usage}`);
      return 2;
    }
    markKey = canaryMarkKeyFrom(
      'key' in secret ? secret.key : await loadOriginSecret(new SecretsManagerClient({}), secret.originSecretArn),
    );
  }
  if (stackName !== undefined) {
    const deployment = await runDeploymentChecks(stackName, clients!);
    results.push(...deployment.results);
    url ??= deployment.siteUrl;
  }
  if (url === undefined) {
    results.push({ name: 'site', ok: false, detail: 'no URL given and the stack has no SiteUrl output' });
  } else if (markKey) {
    // A run of its own: its mailbox and key are new, so it is never a replay of an earlier one.
    const run = `smoke-${Date.now().toString(36)}`;
    io.print(`Running the canary's check against ${url} (run ${run})`);
    results.push(...(await runCanaryCheck({ siteUrl: url, run, markKey, send: true })));
  } else {
    io.print(`Checking ${url}`);
    results.push(...(await runSiteChecks(url)));
  }
  io.print(formatReport(results));
  await appendJobSummary(io.env ?? process.env, stackName ?? url ?? 'no site', results);
  return results.every(({ ok }) => ok) ? 0 : 1;
}
