/**
 * The pieces the context schema (infra/config.ts) is built from: the patterns a value must match
 * and the parsers shared by several values (text, e-mail addresses, positive numbers, flags).
 * Pure: no CDK import.
 */

import { z } from 'zod';

// Deliberately simple: one @, no spaces, a dot in the domain, nothing SES would reject outright.
export const emailPattern = /^[^\s@]+@([^\s@]+\.[^\s@]+)$/;
export const hostnamePattern = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
export const dnsLabelPattern = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
// CloudFront only accepts certificates from us-east-1.
export const certificateArnPattern = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/;
export const accountPattern = /^\d{12}$/;
export const regionPattern = /^[a-z]{2}(-[a-z]+)+-\d$/;
// GitHub's rules: owners are alphanumerics and single hyphens (39 at most); names letters, digits, `.`, `-`, `_`.
export const githubRepositoryPattern = /^([a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,38})\/((?!\.\.?$)[\w.-]{1,100})$/i;
// IAM's own forms: GitHub's OIDC provider in an account, and a role (with its path, if any).
export const githubOidcProviderArnPattern =
  /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/token\.actions\.githubusercontent\.com$/;
export const roleArnPattern = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
// The site's root address, as the build's SITE_URL takes it: https, a host, nothing after it.
/** An HTTPS endpoint SNS can post to: https, a host, any path; no spaces. */
export const pageEndpointPattern = /^https:\/\/([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(:\d{1,5})?(\/\S*)?$/i;
/** CloudFront's flat-rate plans this stack offers. */
export const pricingPlanPattern = /^free$/;
export const siteUrlPattern = /^https:\/\/([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
// A provider's form (Kit: digits), group (MailerLite: digits) or audience (Mailchimp: hex) id.
export const mailProviderListPattern = /^[A-Za-z0-9_-]{1,64}$/;
// Where the signed webhook posts: https only (the lead's name and address travel in it).
export const webhookUrlPattern = /^https:\/\/[^\s/?#]+(\/[^\s#]*)?$/;
// A stage becomes part of stack names and a GitHub environment's name.
export const stageNamePattern = /^[a-z][a-z0-9-]{0,30}$/i;

/**
 * `-c` passes strings, cdk.json any JSON value (read as its JSON text). Trimmed; blank counts as
 * absent (`-c senderEmail=` is no sender).
 */
export function contextText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).trim();
  return text === '' ? undefined : text;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const text = <T extends z.ZodType>(schema: T) => z.preprocess(contextText, schema);
export const quoted = (input: unknown) => `"${String(input)}"`;

/** An optional string that must match `pattern`, lower-cased when `lowerCase`. */
export function matching(pattern: RegExp, message: (input: string) => string, { lowerCase = false } = {}) {
  return text(
    z
      .string()
      .transform((value) => (lowerCase ? value.toLowerCase() : value))
      .refine((value) => pattern.test(value), { error: (issue) => message(String(issue.input)) })
      .optional(),
  );
}

export const emailAddress = (message: (input: string) => string) =>
  z.string().refine((value) => emailPattern.test(value) && value.length <= 254, {
    error: (issue) => message(String(issue.input)),
  });

/** `-c` passes strings and cdk.json numbers: accept both, as a positive (whole) number. */
export function positive(key: string, { integer, example = integer ? 5 : 10 }: { integer: boolean; example?: number }) {
  return text(
    z
      .string()
      .refine(
        (value) => {
          const number = Number(value);
          return Number.isFinite(number) && number > 0 && (!integer || Number.isInteger(number));
        },
        {
          error: (issue) =>
            `${key} ${quoted(issue.input)} must be a positive ${integer ? 'whole number' : 'number'}, e.g. -c ${key}=${example}.`,
        },
      )
      .transform(Number)
      .optional(),
  );
}

/** `-c waf=true` passes a string, cdk.json a boolean: accept both (any case), and nothing else. */
export function flag(key: string) {
  return text(
    z
      .string()
      .transform((value) => value.toLowerCase())
      .refine((value) => value === 'true' || value === 'false', {
        error: (issue) => `${key} ${quoted(issue.input)} must be true or false, e.g. -c ${key}=true.`,
      })
      .transform((value) => value === 'true')
      .optional(),
  );
}
