/**
 * The author's mail provider: every consenting lead is handed to the author's own list there
 * (`mailProvider` in the CDK context; none without it). What the stack, the hand-off function, the
 * leads tool, the digest and the privacy page share: the providers' names, what the request item
 * records of a hand-off (the outbox), and the retry schedule. Plain data.
 */

/** The providers, as the `mailProvider` context value and the `MAIL_PROVIDER` variable name them. */
export const mailProviders = ['kit', 'mailerlite', 'mailchimp', 'webhook'] as const;
export type MailProvider = (typeof mailProviders)[number];

export function isMailProvider(value: unknown): value is MailProvider {
  return typeof value === 'string' && (mailProviders as readonly string[]).includes(value);
}

/** How the privacy page, the form's notice and the digest name each provider. */
export const mailProviderNames: Readonly<Record<MailProvider, string>> = {
  kit: 'Kit',
  mailerlite: 'MailerLite',
  mailchimp: 'Mailchimp',
  webhook: "the author's own mailing-list service",
};

/** What `mailProviderList` is at each provider (the webhook has its URL instead). */
export const mailProviderListMeaning: Readonly<Record<Exclude<MailProvider, 'webhook'>, string>> = {
  kit: 'the form id (Kit: Grow → Landing Pages & Forms, the number in the form’s address)',
  mailerlite: 'the group id (MailerLite: Subscribers → Groups)',
  mailchimp: 'the audience id (Mailchimp: Audience → Settings → Audience name and defaults)',
};

/** The hand-off function's variables (infra/constructs/lead-handoff.ts sets them). */
export const leadHandoffVariables = {
  tableName: 'TABLE_NAME',
  mailProvider: 'MAIL_PROVIDER',
  mailProviderList: 'MAIL_PROVIDER_LIST',
  webhookUrl: 'WEBHOOK_URL',
  /** `off` (`mailProviderDoubleOptIn=false`): readers join as confirmed; unset: the provider asks them to confirm. */
  doubleOptIn: 'MAIL_PROVIDER_DOUBLE_OPT_IN',
  /** The Secrets Manager secret holding the provider's API key (or the webhook's signing secret). */
  secretArn: 'MAIL_PROVIDER_SECRET_ARN',
  /** The hand-off queue: a stream record becomes a message on it. */
  queueUrl: 'LEAD_HANDOFF_QUEUE_URL',
  /** Where a hand-off that must stop (410, an authentication failure) is moved at once. */
  deadLetterQueueUrl: 'LEAD_HANDOFF_DEAD_LETTER_QUEUE_URL',
} as const;

/** The value of `MAIL_PROVIDER_DOUBLE_OPT_IN` that turns the provider's double opt-in off. */
export const doubleOptInOff = 'off';

/** The request item's attribute recording its hand-off (the outbox's state). */
export const handoffAttribute = 'mail_provider_handoff';

/**
 * Where a hand-off stands: `accepted` (the provider took it: never handed off again), `retrying`
 * (the next attempt is scheduled) or `stopped` (no further attempt: the operator's ticket and the
 * author's digest say why).
 */
export const handoffResults = ['accepted', 'retrying', 'stopped'] as const;
export type HandoffResult = (typeof handoffResults)[number];

/** Why a hand-off stopped. */
export const handoffStopReasons = {
  authentication: 'the provider refused the API key (401 or 403): set the right key',
  gone: 'the provider answered 410 Gone: the list or the webhook no longer exists',
  rejected: 'the provider refused this address (another 4xx)',
  exhausted: 'the provider failed every attempt for about a day',
} as const;
export type HandoffStopReason = keyof typeof handoffStopReasons;

/** The request item's `mail_provider_handoff` map. */
export interface HandoffRecord {
  readonly provider: MailProvider;
  readonly result: HandoffResult;
  /** ISO 8601: the latest attempt. */
  readonly at: string;
  /** Attempts so far (the queue's receive count). */
  readonly attempts: number;
  /** The provider's HTTP status, when it answered. */
  readonly status?: number;
  /** On `stopped`. */
  readonly reason?: HandoffStopReason;
  /** ISO 8601: when the provider accepted it. */
  readonly accepted_at?: string;
  /** ISO 8601, on `retrying`: when the next attempt is due. */
  readonly next_attempt_at?: string;
}

/**
 * The Standard Webhooks specification's retry schedule: an attempt immediately, then after 5
 * seconds, 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours and 10 hours: eight attempts over
 * about 27.6 hours. `retryDelaysSeconds[n]` is the wait after the (n+1)-th failed attempt.
 */
export const retryDelaysSeconds = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

/** Attempts in all: the first, then one after each delay. */
export const maxHandoffAttempts = retryDelaysSeconds.length + 1;

/** SQS's longest ChangeMessageVisibility (12 hours): a `Retry-After` beyond it waits 12 hours, then asks again. */
export const maxVisibilityTimeoutSeconds = 12 * 3600;

/**
 * The seconds to wait after failed attempt `attempt` (1-based), or null when it was the last: the
 * schedule's delay, or the provider's `Retry-After` when it asks for longer (never shorter: the
 * schedule's day stays a day), at most SQS's 12 hours per change.
 */
export function retryDelayAfter(attempt: number, retryAfterSeconds?: number): number | null {
  if (attempt >= maxHandoffAttempts) return null;
  const scheduled = retryDelaysSeconds[Math.max(0, attempt - 1)];
  return Math.min(Math.max(scheduled, Math.ceil(retryAfterSeconds ?? 0)), maxVisibilityTimeoutSeconds);
}
