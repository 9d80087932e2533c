/**
 * `npm run smoke -- <site URL> [--stack NAME]`: the site checks, and with `--stack` the
 * deployment's SES checks (the site URL then defaults to the stack's SiteUrl). Exit code 0 only
 * when every check holds, 1 when one fails, 2 for a usage error.
 */

import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { runDeploymentChecks, type DeploymentClients } from './deployment-checks';
import { formatReport, runSiteChecks, type CheckResult } from './site-checks';

export const usage =
  'Usage: npm run smoke -- <site URL> [--stack NAME]   (with --stack the URL defaults to its SiteUrl)';

export interface SmokeCommandIo {
  readonly print: (text: string) => void;
  /** The AWS clients for `--stack`. @default clients from the environment's credentials and region */
  readonly clients?: () => DeploymentClients;
}

const defaultClients = (): DeploymentClients => ({
  cloudFormation: new CloudFormationClient({}),
  ses: new SESv2Client({}),
});

export async function runSmokeCommand(args: readonly string[], io: SmokeCommandIo): Promise<number> {
  let url: string | undefined;
  let stackName: string | undefined;
  try {
    const parsed = parseArgs({ args: [...args], allowPositionals: true, options: { stack: { type: 'string' } } });
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
  if (stackName !== undefined) {
    const deployment = await runDeploymentChecks(stackName, (io.clients ?? defaultClients)());
    results.push(...deployment.results);
    url ??= deployment.siteUrl;
  }
  if (url === undefined) {
    results.push({ name: 'site', ok: false, detail: 'no URL given and the stack has no SiteUrl output' });
  } else {
    io.print(`Checking ${url}`);
    results.push(...(await runSiteChecks(url)));
  }
  io.print(formatReport(results));
  return results.every(({ ok }) => ok) ? 0 : 1;
}
