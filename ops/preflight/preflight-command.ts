/**
 * `npm run preflight -- -c KEY=VALUE …`: read-only checks of the account and region against what
 * the stack needs, before a deploy. One line per check, then a summary; exit code 0 when nothing
 * fails, 1 naming the failed checks (or when the checks cannot start: no credentials, no region),
 * 2 for a usage error.
 */

import { checkStageValues, readSampleStageValues } from './stage-values-check';
import { checkContentPlaceholders, readPlaceholderSpots } from './content-check';
import { ConfigError } from '../../infra/config';
import { checkAccount, checkRegion, readCallerIdentity } from './account-check';
import { createPreflightClients, createStsClient, defaultRegion, type PreflightClients } from './aws-clients';
import { describeError, isMissingCredentials, isRefusedCredentials } from './aws-errors';
import { bootstrapRegions, checkBootstrap } from './bootstrap-check';
import { checkCertificate } from './certificate-check';
import { exitCodeOf, formatCheckLine, formatSummary, type CheckResult } from './check-result';
import { cloudFrontVerificationStep } from './cloudfront-verification-check';
import { parseCommandLine, usage, UsageError } from './command-line';
import { readCdkJson, readDeployContext } from './deploy-context';
import { checkLambdaConcurrency } from './lambda-concurrency-check';
import { checkLeftoverTables } from './leftover-tables-check';
import { readPreflightSettings, type PreflightSettings } from './preflight-settings';
import { checkSenderIdentity } from './sender-identity-check';
import { checkSesAccount } from './ses-account-check';
import { checkStack, readStackState } from './stack-check';

export interface PreflightCommandIo {
  readonly print: (line: string) => void;
  readonly printError: (line: string) => void;
  /** Where cdk.json is: the repository's root. */
  readonly cwd: string;
}

export const noCredentialsLine =
  'No AWS credentials were found: set AWS_PROFILE (after aws sso login or aws configure) or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, then run the preflight again.';

export async function runPreflightCommand(args: readonly string[], io: PreflightCommandIo): Promise<number> {
  let settings: PreflightSettings;
  let deployArguments: string;
  let overridden: readonly string[];
  try {
    const commandLine = parseCommandLine(args);
    if (commandLine.help) {
      io.print(usage);
      return 0;
    }
    overridden = Object.keys(commandLine.context);
    deployArguments = Object.entries(commandLine.context)
      .map(([key, value]) => `-c ${shellWord(`${key}=${value}`)}`)
      .join(' ');
    const { config, lookup } = readDeployContext(await readCdkJson(io.cwd), commandLine.context);
    settings = readPreflightSettings(config, lookup);
  } catch (error) {
    // The app's own lines, word for word, as `cdk deploy` would print them.
    if (error instanceof ConfigError) {
      io.printError(error.message);
      return 2;
    }
    if (!(error instanceof UsageError || error instanceof SyntaxError)) throw error;
    io.printError(`${error.message}\n${usage}`);
    return 2;
  }

  const region = settings.stage?.region ?? (await defaultRegion());
  if (region === undefined) {
    io.printError(
      'No AWS region was found: set AWS_REGION (or a profile with a region), or pass -c stage=NAME of a stage with a region.',
    );
    return 1;
  }

  const sts = createStsClient(region);
  let identity;
  try {
    identity = await readCallerIdentity(sts);
  } catch (error) {
    io.printError(
      isMissingCredentials(error)
        ? noCredentialsLine
        : isRefusedCredentials(error)
          ? `The AWS credentials were refused (${describeError(error)}): renew them, then run the preflight again.`
          : `Cannot ask AWS who the credentials belong to in ${region} (${describeError(error)}): check the network and AWS_REGION.`,
    );
    return 1;
  } finally {
    sts.destroy();
  }

  io.print(
    `Preflight of ${settings.stackName}${settings.stage ? ` (stage ${settings.stage.name})` : ''} in ${identity.account}/${region}`,
  );
  const clients = createPreflightClients(region);
  try {
    const results = [
      checkAccount(identity, settings.stage),
      ...(await runChecks(clients, settings, {
        account: identity.account,
        region,
        deployArguments,
        root: io.cwd,
        overridden,
      })),
    ];
    for (const result of results) io.print(formatCheckLine(result));
    io.print(formatSummary(results));
    return exitCodeOf(results);
  } finally {
    clients.destroy();
  }
}

async function runChecks(
  clients: PreflightClients,
  settings: PreflightSettings,
  {
    account,
    region,
    deployArguments,
    root,
    overridden,
  }: { account: string; region: string; deployArguments: string; root: string; overridden: readonly string[] },
): Promise<CheckResult[]> {
  const stack = await readStackState(clients.cloudFormation, settings.stackName);
  // Independent reads: at once, printed in a fixed order.
  const [bootstraps, senderIdentity, sesAccount, concurrency, certificate, tables] = await Promise.all([
    Promise.all(
      bootstrapRegions(region, settings.waf || settings.stage !== undefined).map((bootstrapRegion) =>
        checkBootstrap(clients.ssm(bootstrapRegion), {
          account,
          region: bootstrapRegion,
          qualifier: settings.bootstrapQualifier,
        }),
      ),
    ),
    checkSenderIdentity(clients.ses, {
      identity: settings.senderIdentity,
      region,
      senderIdentityExists: settings.senderIdentityExists,
      stack,
    }),
    checkSesAccount(clients.ses, { region, dailySendBudget: settings.dailySendBudget }),
    checkLambdaConcurrency(clients.lambda, {
      region,
      accountConcurrencyLimit: settings.accountConcurrencyLimit,
      apiRateLimit: settings.apiRateLimit,
    }),
    settings.customDomain ? checkCertificate(clients.acm, { account, ...settings.customDomain }) : undefined,
    checkLeftoverTables(clients, { region, stackName: settings.stackName, stack, deployArguments }),
  ]);
  return [
    checkRegion(region),
    ...bootstraps,
    checkStack(settings.stackName, stack),
    senderIdentity,
    ...sesAccount,
    concurrency,
    ...(certificate ? [certificate] : []),
    tables,
    cloudFrontVerificationStep(),
    checkContentPlaceholders(await readPlaceholderSpots(root), settings.stage?.name),
    // A value given with -c replaces the stage's: only the ones left to cdk.json are judged.
    ...(settings.stage
      ? [
          checkStageValues(
            (await readSampleStageValues(root, settings.stage.name)).filter(({ key }) => !overridden.includes(key)),
            settings.stage.name,
          ),
        ]
      : []),
  ];
}

/** A -c pair as a shell word, quoted only when it needs to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
