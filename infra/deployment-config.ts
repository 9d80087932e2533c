/**
 * The deployment's settings as the stacks read them: what infra/config.ts makes of the context
 * once it is validated. Types only.
 */

import type { MailProvider } from '../core/data/mail-provider';

export interface ApiThrottle {
  /** Requests per second, averaged. */
  readonly rateLimit: number;
  /** Requests accepted at once above the rate. */
  readonly burstLimit: number;
}

export interface CustomDomain {
  /** The host name CloudFront answers for, e.g. `www.example.com`. */
  readonly domainName: string;
  /** ARN of an ACM certificate in us-east-1 that covers domainName. */
  readonly certificateArn: string;
}

/** A named stage of cdk.json: where its stacks are deployed. */
export interface Stage {
  readonly name: string;
  readonly account: string;
  readonly region: string;
}

/** A GitHub repository, `owner/name`. */
export interface GitHubRepository {
  readonly owner: string;
  readonly name: string;
}

/** Everything the stack needs from the operator, validated and typed. */
export interface DeploymentConfig {
  readonly senderEmail: string;
  /** When set, senderEmail is at this domain and the domain is the SES identity. */
  readonly senderDomain?: string;
  /** When set (only with senderDomain), mail leaves with MAIL FROM `<mailFromSubdomain>.<senderDomain>`. */
  readonly mailFromSubdomain?: string;
  /** Whether the sender's SES identity exists already (the stack then uses it instead of creating it). */
  readonly senderIdentityExists: boolean;
  /** When set, CloudFront serves the site under this name with this certificate. */
  readonly customDomain?: CustomDomain;
  readonly apiThrottle: ApiThrottle;
  /** The per-address cap (the context's `dailySendCap`). */
  readonly addressDailyCap: number;
  readonly clientHourlySendCap: number;
  readonly networkHourlySendCap: number;
  readonly dailySendBudget: number;
  readonly clientHourlySaveCap: number;
  readonly networkHourlySaveCap: number;
  readonly accountConcurrencyLimit: number;
  /** When set, the pages topic e-mails this address (after it confirms the subscription). */
  readonly alarmEmail?: string;
  /** When set, the pages topic posts to this HTTPS endpoint of the operator's paging service. */
  readonly pageEndpoint?: string;
  /** When set, the tickets topic e-mails this address. */
  readonly ticketEmail?: string;
  /** `free`: the distribution is on CloudFront's flat-rate Free plan; pay-as-you-go without it. */
  readonly pricingPlan?: PricingPlan;
  /** Whether an AWS WAF web ACL protects the distribution (on by default; `-c waf=false` removes it). */
  readonly waf: boolean;
  /** Whether a JSON send must carry the page's solved proof of work (on by default; `-c challenge=false` switches it off). */
  readonly challenge: boolean;
  /** Whether the canary checks the live site on a schedule (on by default; `-c canary=false` removes it). */
  readonly canary: boolean;
  /** When set, requests expire this many days after they were made (DynamoDB TTL). */
  readonly requestRetentionDays?: number;
  /** The named stage, when `-c stage=…` is given; without it the stack goes where the CLI's credentials point. */
  readonly stage?: Stage;
  /** When set, the app adds the DeployAccess stack for this repository's workflows. */
  readonly githubRepository?: GitHubRepository;
  /** When set, DeployAccess trusts this existing provider instead of creating one. */
  readonly githubOidcProviderArn?: string;
  /** When set, this role may read the leads too (the tables' key lets it decrypt through DynamoDB). */
  readonly leadsReaderRoleArn?: string;
  /** When set, the weekly digest of new leads is mailed here. */
  readonly authorEmail?: string;
  /** The site's root address, `https://host` (a stage's; the build's SITE_URL). */
  readonly siteUrl?: string;
  /** When set, every consenting lead is handed to the author's mail provider (infra/constructs/lead-handoff.ts). */
  readonly mailProvider?: MailProviderConfig;
}

/** The author's mail provider: which, and its list (or, for the webhook, its address). */
export type MailProviderConfig = (
  | { readonly provider: Exclude<MailProvider, 'webhook'>; readonly list: string }
  | { readonly provider: 'webhook'; readonly webhookUrl: string }
) & {
  /**
   * Whether the provider asks each reader to confirm before they join (its double opt-in).
   * `mailProviderDoubleOptIn=false` turns it off: readers who ticked the box join at once.
   * @default true
   */
  readonly doubleOptIn?: boolean;
};

/** The CloudFront flat-rate plans this stack offers (`pricingPlan`). */
export type PricingPlan = 'free';
