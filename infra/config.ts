/**
 * The deployment's settings, read from CDK context once (at the app entry) and validated before
 * any construct exists, so a wrong value stops `cdk synth`/`cdk deploy` with a message that says
 * what to pass instead of failing half-way through synthesis or, worse, at deploy time.
 *
 * One zod schema (`deploymentContextSchema`) holds every value's parsing, default and message.
 * A named stage (`-c stage=staging`) takes its values from cdk.json's `stages`; `-c` values
 * override them. Pure: no CDK import, so it is unit-tested without synthesizing anything.
 */

import { z } from 'zod';
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
import {
  emailPattern,
  hostnamePattern,
  dnsLabelPattern,
  certificateArnPattern,
  accountPattern,
  regionPattern,
  githubRepositoryPattern,
  githubOidcProviderArnPattern,
  roleArnPattern,
  siteUrlPattern,
  pageEndpointPattern,
  pricingPlanPattern,
  stageNamePattern,
  contextText,
  isRecord,
  text,
  quoted,
  matching,
  emailAddress,
  positive,
  flag,
  mailProviderListPattern,
  webhookUrlPattern,
} from './context-schema-parts';
import { isMailProvider, mailProviderListMeaning, mailProviders } from '../core/data/mail-provider';
import type { DeploymentConfig, PricingPlan } from './deployment-config';

/** The context keys an operator may pass with `-c key=value`, set in cdk.json or in a stage. */
export const contextKeys = {
  /** Required. The address the cheat sheet is sent from; becomes an SES identity. */
  senderEmail: 'senderEmail',
  /** Optional. Verify this whole domain with Easy DKIM instead of the single address. */
  senderDomain: 'senderDomain',
  /** Optional, with senderDomain. `mail` sends with MAIL FROM `mail.<senderDomain>`, so SPF aligns. */
  mailFromSubdomain: 'mailFromSubdomain',
  /** Optional. `true`: the sender's SES identity exists already; use it instead of creating it. */
  senderIdentityExists: 'senderIdentityExists',
  /** Optional, with certificateArn. The site's own host name, e.g. `www.example.com`. */
  domainName: 'domainName',
  /** Optional, with domainName. An ACM certificate in us-east-1 covering domainName. */
  certificateArn: 'certificateArn',
  /** Optional. Steady-state API requests per second for the whole API. */
  apiRateLimit: 'apiRateLimit',
  /** Optional. Requests the API absorbs in a burst above the rate. */
  apiBurstLimit: 'apiBurstLimit',
  /** Optional. Cheat sheets sent to one address per day. */
  dailySendCap: 'dailySendCap',
  /** Optional. Cheat sheets sent at the request of one client (IPv4 address, IPv6 /64) per hour. */
  clientHourlySendCap: 'clientHourlySendCap',
  /** Optional. Cheat sheets sent at the request of one network (IPv4 /24, IPv6 /48) per hour. */
  networkHourlySendCap: 'networkHourlySendCap',
  /** Optional. Cheat sheets the whole product sends per 24 hours; the budget alarms read it too. */
  dailySendBudget: 'dailySendBudget',
  /** Optional. Requests one client may save per hour. */
  clientHourlySaveCap: 'clientHourlySaveCap',
  /** Optional. Requests one network may save per hour. */
  networkHourlySaveCap: 'networkHourlySaveCap',
  /** Optional. The account's Lambda concurrency quota; the concurrency alarm fires at 80% of it. */
  accountConcurrencyLimit: 'accountConcurrencyLimit',
  /** Optional. Where pages are e-mailed (an SNS e-mail subscription to the pages topic, confirmed by a link). */
  alarmEmail: 'alarmEmail',
  /** Optional. An HTTPS endpoint of the operator's paging service, subscribed to the pages topic. */
  pageEndpoint: 'pageEndpoint',
  /** Optional. Where tickets are e-mailed (the tickets topic's subscription). */
  ticketEmail: 'ticketEmail',
  /** Optional. `free`: CloudFront's flat-rate Free plan for the distribution; pay-as-you-go without it. */
  pricingPlan: 'pricingPlan',
  /**
   * Optional, default `true`: an AWS WAF web ACL in front of the distribution (about 8 USD a month):
   * one client's share of the API's throttle. `false` leaves it out, with a synth warning.
   */
  waf: 'waf',
  /** Optional. Days a request is kept before DynamoDB's TTL deletes it; by default it is kept. */
  requestRetentionDays: 'requestRetentionDays',
  /** Optional. A key of cdk.json's `stages`: that stage's account, region and values. */
  stage: 'stage',
  /** Optional, with stage. `owner/name` on GitHub: adds the DeployAccess stack its workflows deploy with. */
  githubRepository: 'githubRepository',
  /** Optional, with githubRepository. The account's GitHub OIDC provider: reused instead of created. */
  githubOidcProviderArn: 'githubOidcProviderArn',
  /** Optional. The one role besides the functions that may decrypt (read) the leads' tables. */
  leadsReaderRoleArn: 'leadsReaderRoleArn',
  /** Optional. Where the weekly digest of new leads is mailed; without it there is no digest. */
  authorEmail: 'authorEmail',
  /** Required in a stage. The site's root address (https://…): the pipeline builds with it as SITE_URL. */
  siteUrl: 'siteUrl',
  /** Optional. `kit`, `mailerlite`, `mailchimp` or `webhook`: every consenting lead goes to the author's list there. */
  mailProvider: 'mailProvider',
  /** With mailProvider kit, mailerlite or mailchimp: the provider's form, group or audience id. */
  mailProviderList: 'mailProviderList',
  /** With mailProvider webhook: the https address the signed webhook posts each lead to. */
  webhookUrl: 'webhookUrl',
} as const;

/** cdk.json's map of named stages (`stages.staging.senderEmail`, …). */
export const stagesKey = 'stages';

/** What a named stage must define (or get from `-c`): where it goes, who sends, who hears the alarms. */
export const requiredStageValues = [
  'account',
  'region',
  contextKeys.senderEmail,
  contextKeys.alarmEmail,
  contextKeys.siteUrl,
] as const;

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

const senderEmailHint = `pass the address the cheat sheet is sent from, e.g. -c ${contextKeys.senderEmail}=you@yourdomain.com`;

/** The one schema: every context value (and a stage's account and region), validated together. */
export const deploymentContextSchema = z
  .strictObject(
    {
      senderEmail: text(
        z
          .string({ error: () => `${contextKeys.senderEmail} is missing: ${senderEmailHint}.` })
          .pipe(
            emailAddress(
              (input) => `${contextKeys.senderEmail} "${input}" is not an e-mail address: ${senderEmailHint}.`,
            ),
          ),
      ),
      senderDomain: matching(
        hostnamePattern,
        (input) =>
          `${contextKeys.senderDomain} "${input}" is not a domain name, e.g. -c ${contextKeys.senderDomain}=yourdomain.com.`,
        { lowerCase: true },
      ),
      mailFromSubdomain: matching(
        dnsLabelPattern,
        (input) =>
          `${contextKeys.mailFromSubdomain} "${input}" is not one DNS label (letters, digits, hyphens), e.g. -c ${contextKeys.mailFromSubdomain}=mail.`,
        { lowerCase: true },
      ),
      senderIdentityExists: flag(contextKeys.senderIdentityExists),
      domainName: matching(
        hostnamePattern,
        (input) =>
          `${contextKeys.domainName} "${input}" is not a host name, e.g. -c ${contextKeys.domainName}=www.yourdomain.com.`,
        { lowerCase: true },
      ),
      certificateArn: matching(
        certificateArnPattern,
        (input) =>
          `${contextKeys.certificateArn} "${input}" is not an ACM certificate ARN in us-east-1 (CloudFront only uses certificates from us-east-1).`,
      ),
      apiRateLimit: positive(contextKeys.apiRateLimit, { integer: false }),
      apiBurstLimit: positive(contextKeys.apiBurstLimit, { integer: true }),
      dailySendCap: positive(contextKeys.dailySendCap, { integer: true }),
      clientHourlySendCap: positive(contextKeys.clientHourlySendCap, { integer: true }),
      networkHourlySendCap: positive(contextKeys.networkHourlySendCap, { integer: true, example: 30 }),
      dailySendBudget: positive(contextKeys.dailySendBudget, { integer: true, example: 2000 }),
      clientHourlySaveCap: positive(contextKeys.clientHourlySaveCap, { integer: true, example: 20 }),
      networkHourlySaveCap: positive(contextKeys.networkHourlySaveCap, { integer: true, example: 60 }),
      accountConcurrencyLimit: positive(contextKeys.accountConcurrencyLimit, { integer: true, example: 1000 }),
      alarmEmail: text(
        emailAddress(
          (input) =>
            `${contextKeys.alarmEmail} "${input}" is not an e-mail address: pass the address the alarms should reach, e.g. -c ${contextKeys.alarmEmail}=ops@yourdomain.com, or leave it out (the alarms still exist; subscribe later).`,
        ).optional(),
      ),
      pageEndpoint: matching(
        pageEndpointPattern,
        (input) =>
          `${contextKeys.pageEndpoint} "${input}" is not an https:// address: pass your paging service's HTTPS endpoint for SNS, e.g. -c ${contextKeys.pageEndpoint}=https://events.example.com/integration/KEY/enqueue, or leave it out (pages are e-mailed to ${contextKeys.alarmEmail} only).`,
      ),
      ticketEmail: text(
        emailAddress(
          (input) =>
            `${contextKeys.ticketEmail} "${input}" is not an e-mail address: pass where tickets should go, e.g. -c ${contextKeys.ticketEmail}=tickets@yourdomain.com, or leave it out (tickets stay in the console and on the dashboard).`,
        ).optional(),
      ),
      pricingPlan: matching(
        pricingPlanPattern,
        (input) =>
          `${contextKeys.pricingPlan} "${input}" is not a plan this stack offers: pass -c ${contextKeys.pricingPlan}=free (CloudFront's flat-rate Free plan), or leave it out (pay-as-you-go).`,
      ),
      waf: flag(contextKeys.waf),
      requestRetentionDays: positive(contextKeys.requestRetentionDays, { integer: true }),
      stage: text(z.string().optional()),
      account: matching(accountPattern, (input) => `account "${input}" must be an AWS account ID of 12 digits.`),
      region: matching(regionPattern, (input) => `region "${input}" is not an AWS region, e.g. eu-west-1.`),
      githubRepository: matching(
        githubRepositoryPattern,
        (input) =>
          `${contextKeys.githubRepository} "${input}" must be owner/name on GitHub, e.g. -c ${contextKeys.githubRepository}=your-org/first-100-days-site.`,
      ),
      githubOidcProviderArn: matching(
        githubOidcProviderArnPattern,
        (input) =>
          `${contextKeys.githubOidcProviderArn} "${input}" is not the ARN of GitHub's OIDC provider, e.g. -c ${contextKeys.githubOidcProviderArn}=arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com (aws iam list-open-id-connect-providers).`,
      ),
      leadsReaderRoleArn: matching(
        roleArnPattern,
        (input) =>
          `${contextKeys.leadsReaderRoleArn} "${input}" is not an IAM role ARN, e.g. -c ${contextKeys.leadsReaderRoleArn}=arn:aws:iam::123456789012:role/leads-reader.`,
      ),
      authorEmail: text(
        emailAddress(
          (input) =>
            `${contextKeys.authorEmail} "${input}" is not an e-mail address: pass where the weekly digest of new leads goes, e.g. -c ${contextKeys.authorEmail}=author@yourdomain.com, or leave it out (no digest).`,
        ).optional(),
      ),
      mailProvider: text(
        z
          .string()
          .transform((value) => value.toLowerCase())
          .refine(isMailProvider, {
            error: (issue) =>
              `${contextKeys.mailProvider} ${quoted(issue.input)} is none of ${mailProviders.join(', ')}, e.g. -c ${contextKeys.mailProvider}=kit.`,
          })
          .optional(),
      ),
      mailProviderList: matching(
        mailProviderListPattern,
        (input) =>
          `${contextKeys.mailProviderList} ${quoted(input)} is not a form, group or audience id (letters, digits, - and _), e.g. -c ${contextKeys.mailProviderList}=1234567.`,
      ),
      webhookUrl: matching(
        webhookUrlPattern,
        (input) =>
          `${contextKeys.webhookUrl} ${quoted(input)} must be an https address, e.g. -c ${contextKeys.webhookUrl}=https://hooks.example.com/leads.`,
      ),
      siteUrl: matching(
        siteUrlPattern,
        (input) =>
          `${contextKeys.siteUrl} "${input}" must be the site's root address, https with a host and nothing after it, e.g. https://www.yourdomain.com.`,
        { lowerCase: true },
      ),
    },
    // Only a stage's entry can bring a key the app does not read: most likely a typo.
    { error: (issue) => (issue.code === 'unrecognized_keys' ? unknownStageValues(issue.keys) : undefined) },
  )
  .superRefine(
    (value, context) => {
      const problem = (message: string) => context.addIssue({ code: 'custom', message });
      const { senderEmail, senderDomain, domainName, certificateArn, mailFromSubdomain } = value;
      // The send function may only use the one identity, so the address must belong to it.
      if (typeof senderDomain === 'string' && typeof senderEmail === 'string' && emailPattern.test(senderEmail)) {
        const emailDomain = senderEmail.split('@')[1].toLowerCase();
        if (hostnamePattern.test(senderDomain) && emailDomain !== senderDomain) {
          problem(
            `${contextKeys.senderEmail} "${senderEmail}" is not at ${contextKeys.senderDomain} "${senderDomain}": use an address at that domain, e.g. -c ${contextKeys.senderEmail}=cheatsheet@${senderDomain}.`,
          );
        }
      }
      if ((domainName === undefined) !== (certificateArn === undefined)) {
        problem(
          `${contextKeys.domainName} and ${contextKeys.certificateArn} go together: pass both (e.g. -c ${contextKeys.domainName}=www.yourdomain.com -c ${contextKeys.certificateArn}=arn:aws:acm:us-east-1:123456789012:certificate/…) or neither.`,
        );
      }
      // SES sets a custom MAIL FROM domain only below a verified domain identity.
      if (mailFromSubdomain !== undefined && senderDomain === undefined) {
        problem(
          `${contextKeys.mailFromSubdomain} "${String(mailFromSubdomain)}" needs ${contextKeys.senderDomain}: the MAIL FROM domain is a subdomain of the sender's verified domain, e.g. -c ${contextKeys.senderDomain}=yourdomain.com -c ${contextKeys.mailFromSubdomain}=mail.`,
        );
      }
      // CloudFormation sets MAIL FROM only on an identity it creates (infra/constructs/mail.ts).
      if (mailFromSubdomain !== undefined && value.senderIdentityExists === true) {
        problem(
          `${contextKeys.mailFromSubdomain} needs the identity the stack creates: drop ${contextKeys.senderIdentityExists}=true, or set MAIL FROM on the existing identity in the SES console.`,
        );
      }
      if (value.githubOidcProviderArn !== undefined && value.githubRepository === undefined) {
        problem(
          `${contextKeys.githubOidcProviderArn} is used only by the DeployAccess stack: pass it with ${contextKeys.githubRepository}, or leave it out.`,
        );
      }
      // With a custom domain, the pages' canonical address must be the one CloudFront answers for.
      if (
        typeof value.siteUrl === 'string' &&
        typeof domainName === 'string' &&
        value.siteUrl !== `https://${domainName}`
      ) {
        problem(
          `${contextKeys.siteUrl} "${value.siteUrl}" is not the custom domain ${domainName}: set it to https://${domainName}.`,
        );
      }
      // Each provider needs where to put the lead, and only that.
      const { mailProvider, mailProviderList, webhookUrl } = value;
      if (mailProvider === undefined && (mailProviderList !== undefined || webhookUrl !== undefined)) {
        problem(
          `${mailProviderList !== undefined ? contextKeys.mailProviderList : contextKeys.webhookUrl} needs ${contextKeys.mailProvider}: pass -c ${contextKeys.mailProvider}=${mailProviders.join('|')}, or leave it out.`,
        );
      }
      if (isMailProvider(mailProvider) && mailProvider !== 'webhook' && mailProviderList === undefined) {
        problem(
          `${contextKeys.mailProvider} ${mailProvider} needs ${contextKeys.mailProviderList}: ${mailProviderListMeaning[mailProvider]}, e.g. -c ${contextKeys.mailProviderList}=1234567.`,
        );
      }
      if (mailProvider === 'webhook' && webhookUrl === undefined) {
        problem(
          `${contextKeys.mailProvider} webhook needs ${contextKeys.webhookUrl}: the https address each lead is posted to, e.g. -c ${contextKeys.webhookUrl}=https://hooks.example.com/leads.`,
        );
      }
      if (mailProvider === 'webhook' && mailProviderList !== undefined) {
        problem(`${contextKeys.mailProviderList} is not used by the webhook: leave it out.`);
      }
      if (isMailProvider(mailProvider) && mailProvider !== 'webhook' && webhookUrl !== undefined) {
        problem(`${contextKeys.webhookUrl} is only used by ${contextKeys.mailProvider} webhook: leave it out.`);
      }
      // The deploy role trusts one GitHub environment, named after the stage.
      if (value.githubRepository !== undefined && value.stage === undefined) {
        problem(
          `${contextKeys.githubRepository} "${String(value.githubRepository)}" needs a stage: the deploy role trusts only that stage's GitHub environment, e.g. -c ${contextKeys.stage}=staging.`,
        );
      }
    },
    // Run even when a value above failed, so one attempt lists every problem.
    { when: () => true },
  );

type DeploymentContext = z.output<typeof deploymentContextSchema>;

function unknownStageValues(keys: readonly string[]): string {
  return `A stage in cdk.json has ${keys.map(quoted).join(', ')}, which is no context value of this app (known: ${[...Object.keys(contextKeys), 'account', 'region'].join(', ')}).`;
}

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
  const { mailProvider, mailProviderList, webhookUrl } = context;
  if (!isMailProvider(mailProvider)) return {};
  if (mailProvider === 'webhook') return { mailProvider: { provider: mailProvider, webhookUrl: webhookUrl! } };
  return { mailProvider: { provider: mailProvider, list: mailProviderList! } };
}
