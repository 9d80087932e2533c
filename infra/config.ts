/**
 * The deployment's settings, read from CDK context once (at the app entry) and validated before
 * any construct exists, so a wrong value stops `cdk synth`/`cdk deploy` with a message that says
 * what to pass instead of failing half-way through synthesis or, worse, at deploy time.
 *
 * Pure: no CDK import, so it is unit-tested without synthesizing anything.
 */

import {
  defaultClientHourlyLimit,
  defaultDailyLimit,
  defaultDailySendBudget,
} from '../core/config/function-environment';

/** The context keys an operator may pass with `-c key=value` (or set in cdk.json). */
export const contextKeys = {
  /** Required. The address the cheat sheet is sent from; becomes an SES identity. */
  senderEmail: 'senderEmail',
  /** Optional. Verify this whole domain with Easy DKIM instead of the single address. */
  senderDomain: 'senderDomain',
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
  /** Optional. Cheat sheets the whole product sends per 24 hours; the budget alarms read it too. */
  dailySendBudget: 'dailySendBudget',
  /** Optional. Where the alarms are e-mailed (an SNS e-mail subscription, confirmed by a link). */
  alarmEmail: 'alarmEmail',
  /** Optional. `true` puts an AWS WAF web ACL in front of the distribution (about 8 USD a month). */
  waf: 'waf',
  /** Optional. Days a request is kept before DynamoDB's TTL deletes it; by default it is kept. */
  requestRetentionDays: 'requestRetentionDays',
} as const;

/**
 * Defaults sized for a book's marketing page: one form submission is two requests, so 10 per
 * second (20 in a burst) is far above real traffic yet caps what a script can cost.
 */
export const defaultApiThrottle = { rateLimit: 10, burstLimit: 20 } as const;

/** The send function's own defaults (core/config/function-environment.ts, with their reasons), deployed explicitly. */
export const defaultDailySendCap = defaultDailyLimit;
export const defaultClientHourlySendCap = defaultClientHourlyLimit;
export { defaultDailySendBudget };

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

/** Everything the stack needs from the operator, validated and typed. */
export interface DeploymentConfig {
  readonly senderEmail: string;
  /** When set, senderEmail is at this domain and the domain is the SES identity. */
  readonly senderDomain?: string;
  /** When set, CloudFront serves the site under this name with this certificate. */
  readonly customDomain?: CustomDomain;
  readonly apiThrottle: ApiThrottle;
  readonly dailySendCap: number;
  readonly clientHourlySendCap: number;
  readonly dailySendBudget: number;
  /** When set, the alarm topic e-mails this address (after it confirms the subscription). */
  readonly alarmEmail?: string;
  /** Whether an AWS WAF web ACL protects the distribution. */
  readonly waf: boolean;
  /** When set, requests expire this many days after they were made (DynamoDB TTL). */
  readonly requestRetentionDays?: number;
}

/** A problem with the context values; its message is meant for the person running `cdk`. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      [
        'Cannot synthesize the stack: the CDK context is incomplete or invalid.',
        ...problems.map((problem) => `  - ${problem}`),
        '',
        'Example: npx cdk deploy -c senderEmail=you@yourdomain.com',
      ].join('\n'),
    );
    this.name = 'ConfigError';
  }
}

/** Reads one context value; `app.node.tryGetContext` in the app, a plain object in tests. */
export type ContextLookup = (key: string) => unknown;

// Deliberately simple: one @, no spaces, a dot in the domain, nothing SES would reject outright.
const emailPattern = /^[^\s@]+@([^\s@]+\.[^\s@]+)$/;
const hostnamePattern = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
// CloudFront only accepts certificates from us-east-1.
const certificateArnPattern = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/;

const senderEmailHint = `pass the address the cheat sheet is sent from, e.g. -c ${contextKeys.senderEmail}=you@yourdomain.com`;

/**
 * Validates the context and returns the typed configuration, or throws one ConfigError that
 * lists every problem at once.
 */
export function parseDeploymentConfig(lookup: ContextLookup): DeploymentConfig {
  const problems: string[] = [];

  const senderEmail = readString(lookup, contextKeys.senderEmail);
  const senderDomain = readString(lookup, contextKeys.senderDomain)?.toLowerCase();
  const domainName = readString(lookup, contextKeys.domainName)?.toLowerCase();
  const certificateArn = readString(lookup, contextKeys.certificateArn);

  if (senderEmail === undefined) {
    problems.push(`${contextKeys.senderEmail} is missing: ${senderEmailHint}.`);
  } else if (!emailPattern.test(senderEmail) || senderEmail.length > 254) {
    problems.push(`${contextKeys.senderEmail} "${senderEmail}" is not an e-mail address: ${senderEmailHint}.`);
  }

  if (senderDomain !== undefined) {
    if (!hostnamePattern.test(senderDomain)) {
      problems.push(
        `${contextKeys.senderDomain} "${senderDomain}" is not a domain name, e.g. -c ${contextKeys.senderDomain}=yourdomain.com.`,
      );
    } else if (senderEmail !== undefined && emailPattern.test(senderEmail)) {
      // The send function may only use the one identity, so the address must belong to it.
      const emailDomain = senderEmail.split('@')[1].toLowerCase();
      if (emailDomain !== senderDomain) {
        problems.push(
          `${contextKeys.senderEmail} "${senderEmail}" is not at ${contextKeys.senderDomain} "${senderDomain}": use an address at that domain, e.g. -c ${contextKeys.senderEmail}=cheatsheet@${senderDomain}.`,
        );
      }
    }
  }

  if ((domainName === undefined) !== (certificateArn === undefined)) {
    problems.push(
      `${contextKeys.domainName} and ${contextKeys.certificateArn} go together: pass both (e.g. -c ${contextKeys.domainName}=www.yourdomain.com -c ${contextKeys.certificateArn}=arn:aws:acm:us-east-1:123456789012:certificate/…) or neither.`,
    );
  }
  if (domainName !== undefined && !hostnamePattern.test(domainName)) {
    problems.push(
      `${contextKeys.domainName} "${domainName}" is not a host name, e.g. -c ${contextKeys.domainName}=www.yourdomain.com.`,
    );
  }
  if (certificateArn !== undefined && !certificateArnPattern.test(certificateArn)) {
    problems.push(
      `${contextKeys.certificateArn} "${certificateArn}" is not an ACM certificate ARN in us-east-1 (CloudFront only uses certificates from us-east-1).`,
    );
  }

  const rateLimit = readNumber(lookup, contextKeys.apiRateLimit, problems, { integer: false });
  const burstLimit = readNumber(lookup, contextKeys.apiBurstLimit, problems, { integer: true });
  const dailySendCap = readNumber(lookup, contextKeys.dailySendCap, problems, { integer: true });
  const clientHourlySendCap = readNumber(lookup, contextKeys.clientHourlySendCap, problems, { integer: true });
  const dailySendBudget = readNumber(lookup, contextKeys.dailySendBudget, problems, { integer: true, example: 2000 });
  const waf = readBoolean(lookup, contextKeys.waf, problems);

  const alarmEmail = readString(lookup, contextKeys.alarmEmail);
  if (alarmEmail !== undefined && (!emailPattern.test(alarmEmail) || alarmEmail.length > 254)) {
    problems.push(
      `${contextKeys.alarmEmail} "${alarmEmail}" is not an e-mail address: pass the address the alarms should reach, e.g. -c ${contextKeys.alarmEmail}=ops@yourdomain.com, or leave it out (the alarms still exist; subscribe later).`,
    );
  }
  const requestRetentionDays = readNumber(lookup, contextKeys.requestRetentionDays, problems, { integer: true });

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    senderEmail: senderEmail!,
    ...(senderDomain !== undefined && { senderDomain }),
    ...(domainName !== undefined && certificateArn !== undefined && { customDomain: { domainName, certificateArn } }),
    apiThrottle: {
      rateLimit: rateLimit ?? defaultApiThrottle.rateLimit,
      burstLimit: burstLimit ?? defaultApiThrottle.burstLimit,
    },
    dailySendCap: dailySendCap ?? defaultDailySendCap,
    clientHourlySendCap: clientHourlySendCap ?? defaultClientHourlySendCap,
    dailySendBudget: dailySendBudget ?? defaultDailySendBudget,
    ...(alarmEmail !== undefined && { alarmEmail }),
    waf: waf ?? false,
    ...(requestRetentionDays !== undefined && { requestRetentionDays }),
  };
}

/** `-c waf=true` passes a string, cdk.json a boolean: accept both, and nothing else. */
function readBoolean(lookup: ContextLookup, key: string, problems: string[]): boolean | undefined {
  const text = readString(lookup, key)?.toLowerCase();
  if (text === undefined) return undefined;
  if (text === 'true' || text === 'false') return text === 'true';
  problems.push(`${key} "${text}" must be true or false, e.g. -c ${key}=true.`);
  return undefined;
}

/** A trimmed string, or undefined when absent or blank (`-c senderEmail=` counts as missing). */
function readString(lookup: ContextLookup, key: string): string | undefined {
  const value = lookup(key);
  if (value === undefined || value === null) return undefined;
  // cdk.json may hold any JSON value: numbers and objects are read as their JSON text.
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).trim();
  return text === '' ? undefined : text;
}

/** `-c` passes strings and cdk.json passes numbers: accept both, as a positive number. */
function readNumber(
  lookup: ContextLookup,
  key: string,
  problems: string[],
  { integer, example = integer ? 5 : 10 }: { integer: boolean; example?: number },
): number | undefined {
  const text = readString(lookup, key);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    problems.push(
      `${key} "${text}" must be a positive ${integer ? 'whole number' : 'number'}, e.g. -c ${key}=${example}.`,
    );
    return undefined;
  }
  return value;
}
