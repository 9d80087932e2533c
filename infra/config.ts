/**
 * The deployment's settings, read from CDK context once (at the app entry) and validated before
 * any construct exists, so a wrong value stops `cdk synth`/`cdk deploy` with a message that says
 * what to pass instead of failing half-way through synthesis or, worse, at deploy time.
 *
 * One zod schema (infra/context-schema.ts) holds every value's parsing, default and message; the
 * keys' names are in infra/context-keys.ts.
 * A named stage (`-c stage=staging`) takes its values from cdk.json's `stages`; `-c` values
 * override them. Pure: no CDK import, so it is unit-tested without synthesizing anything.
 */

import {
  defaultAccountConcurrencyLimit,
  defaultApiThrottle,
  defaultClientHourlySaveCap,
  defaultClientHourlySendCap,
  defaultDailySendBudget,
  defaultAddressDailyCap,
  defaultNetworkHourlySaveCap,
  defaultNetworkHourlySendCap,
} from './context-defaults';
import { contextText, githubRepositoryPattern, isRecord, stageNamePattern } from './context-schema-parts';
import { contextKeys, requiredStageValues, stagesKey } from './context-keys';
import { deploymentContextSchema, type DeploymentContext } from './context-schema';
import { isMailProvider } from '../core/data/mail-provider';
import type { DeploymentConfig, PricingPlan } from './deployment-config';

export { contextKeys, requiredStageValues, stagesKey } from './context-keys';
export type { ApiThrottle, CustomDomain, DeploymentConfig, GitHubRepository, Stage } from './deployment-config';

/** A problem with the context values: one line per problem, each naming the value, for the person running `cdk`. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/** Reads one context value; `app.node.tryGetContext` in the app, a plain object in tests. */
export type ContextLookup = (key: string) => unknown;

/**
 * The context as the schema reads it: the named stage's values from cdk.json, overridden by
 * every context value given at the top level (`-c key=value`). A stage that is unknown, or lacks
 * a value it needs, stops here with one line naming the stage and the value.
 */
function contextInput(lookup: ContextLookup): Record<string, unknown> {
  const overrides = Object.fromEntries(
    Object.values(contextKeys)
      .map((key) => [key, lookup(key)] as const)
      .filter(([, value]) => contextText(value) !== undefined),
  );
  const stageName = contextText(overrides.stage);
  if (stageName === undefined) return overrides;

  const stages = lookup(stagesKey);
  const known = isRecord(stages) ? Object.keys(stages).filter((name) => isRecord(stages[name])) : [];
  if (!isRecord(stages) || !known.includes(stageName) || !stageNamePattern.test(stageName)) {
    const choice = known.length > 0 ? `one of ${known.join(', ')}` : 'none defined';
    throw new ConfigError([
      `Unknown stage "${stageName}": -c ${contextKeys.stage} takes a key of "${stagesKey}" in cdk.json (${choice}).`,
    ]);
  }
  const input: Record<string, unknown> = { ...(stages[stageName] as Record<string, unknown>), ...overrides };
  const missing = requiredStageValues.filter((key) => contextText(input[key]) === undefined);
  if (missing.length > 0) {
    const where = missing.map((key) => `${stagesKey}.${stageName}.${key}`).join(', ');
    throw new ConfigError([`Stage "${stageName}" has no ${missing.join(', ')}: set ${where} in cdk.json.`]);
  }
  return input;
}

/**
 * Validates the context and returns the typed configuration, or throws one ConfigError that
 * lists every problem at once (one line each).
 */
export function parseDeploymentConfig(lookup: ContextLookup): DeploymentConfig {
  const result = deploymentContextSchema.safeParse(contextInput(lookup));
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => issue.message));
  return toDeploymentConfig(result.data);
}

function toDeploymentConfig(context: DeploymentContext): DeploymentConfig {
  const { senderDomain, mailFromSubdomain, domainName, certificateArn, alarmEmail, requestRetentionDays } = context;
  const { stage, account, region, githubRepository } = context;
  const repository = githubRepository === undefined ? undefined : githubRepositoryPattern.exec(githubRepository)!;
  return {
    senderEmail: context.senderEmail,
    ...(senderDomain !== undefined && { senderDomain }),
    ...(mailFromSubdomain !== undefined && { mailFromSubdomain }),
    senderIdentityExists: context.senderIdentityExists ?? false,
    ...(domainName !== undefined && certificateArn !== undefined && { customDomain: { domainName, certificateArn } }),
    apiThrottle: {
      rateLimit: context.apiRateLimit ?? defaultApiThrottle.rateLimit,
      burstLimit: context.apiBurstLimit ?? defaultApiThrottle.burstLimit,
    },
    addressDailyCap: context.dailySendCap ?? defaultAddressDailyCap,
    clientHourlySendCap: context.clientHourlySendCap ?? defaultClientHourlySendCap,
    networkHourlySendCap: context.networkHourlySendCap ?? defaultNetworkHourlySendCap,
    dailySendBudget: context.dailySendBudget ?? defaultDailySendBudget,
    clientHourlySaveCap: context.clientHourlySaveCap ?? defaultClientHourlySaveCap,
    networkHourlySaveCap: context.networkHourlySaveCap ?? defaultNetworkHourlySaveCap,
    accountConcurrencyLimit: context.accountConcurrencyLimit ?? defaultAccountConcurrencyLimit,
    ...(alarmEmail !== undefined && { alarmEmail }),
    ...(context.pageEndpoint !== undefined && { pageEndpoint: context.pageEndpoint }),
    ...(context.ticketEmail !== undefined && { ticketEmail: context.ticketEmail }),
    ...(context.pricingPlan !== undefined && { pricingPlan: context.pricingPlan as PricingPlan }),
    // On unless turned off: without it one client can take the throttle every reader shares.
    waf: context.waf ?? true,
    // On unless switched off: a script must then solve a challenge per send, as the page does.
    challenge: context.challenge ?? true,
    // On unless removed: without it an outage at night pages no one until readers are hurt.
    canary: context.canary ?? true,
    ...(requestRetentionDays !== undefined && { requestRetentionDays }),
    // contextInput made sure a named stage has both.
    ...(stage !== undefined && { stage: { name: stage, account: account!, region: region! } }),
    ...(repository && { githubRepository: { owner: repository[1], name: repository[2] } }),
    ...(context.githubOidcProviderArn !== undefined && { githubOidcProviderArn: context.githubOidcProviderArn }),
    ...(context.leadsReaderRoleArn !== undefined && { leadsReaderRoleArn: context.leadsReaderRoleArn }),
    ...(context.authorEmail !== undefined && { authorEmail: context.authorEmail }),
    ...(context.siteUrl !== undefined && { siteUrl: context.siteUrl }),
    ...mailProviderOf(context),
  };
}

/** The provider's part of the configuration; the schema's refinement made sure each has what it needs. */
function mailProviderOf(context: DeploymentContext): Pick<DeploymentConfig, 'mailProvider'> {
  const { mailProvider, mailProviderList, webhookUrl, mailProviderDoubleOptIn } = context;
  if (!isMailProvider(mailProvider)) return {};
  // Only when turned off: on is the default, and the config then reads as before.
  const optIn = mailProviderDoubleOptIn === false ? { doubleOptIn: false } : {};
  if (mailProvider === 'webhook')
    return { mailProvider: { provider: mailProvider, webhookUrl: webhookUrl!, ...optIn } };
  return { mailProvider: { provider: mailProvider, list: mailProviderList!, ...optIn } };
}
