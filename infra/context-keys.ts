/**
 * The names of the context values (`-c key=value`, cdk.json, a stage's entry) and what a named
 * stage must define. Names only: infra/context-schema.ts parses them, infra/config.ts reads them once.
 */

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
  /** Optional, default `true`: the proof of work before a send (CHEAT_SHEET_CHALLENGE=on); `false` switches it off. */
  challenge: 'challenge',
  /** Optional, default `true`: the canary, a reader the stack sends itself every 5 minutes; `false` removes it. */
  canary: 'canary',
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
  /** With mailProvider: `false` adds readers who ticked the list box at once, without the provider's confirmation e-mail. */
  mailProviderDoubleOptIn: 'mailProviderDoubleOptIn',
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
