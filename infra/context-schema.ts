/**
 * The one zod schema of the deployment's context: every value's parsing, default and message, and
 * the rules between values, so one attempt lists every problem. Pure: no CDK import. Read only
 * through parseDeploymentConfig (infra/config.ts), at the app's entry.
 */

import { z } from 'zod';
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
import { contextKeys } from './context-keys';

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
            `${contextKeys.ticketEmail} "${input}" is not an e-mail address: pass where tickets should go, e.g. -c ${contextKeys.ticketEmail}=tickets@yourdomain.com, or leave it out (tickets then go to ${contextKeys.alarmEmail}).`,
        ).optional(),
      ),
      pricingPlan: matching(
        pricingPlanPattern,
        (input) =>
          `${contextKeys.pricingPlan} "${input}" is not a plan this stack offers: pass -c ${contextKeys.pricingPlan}=free (CloudFront's flat-rate Free plan), or leave it out (pay-as-you-go).`,
      ),
      waf: flag(contextKeys.waf),
      challenge: flag(contextKeys.challenge),
      canary: flag(contextKeys.canary),
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
      mailProviderDoubleOptIn: flag(contextKeys.mailProviderDoubleOptIn),
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
      if (mailProvider === undefined && value.mailProviderDoubleOptIn !== undefined) {
        problem(
          `${contextKeys.mailProviderDoubleOptIn} needs ${contextKeys.mailProvider}: it says how readers join the author's list there; leave it out.`,
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

/** The context values as the schema returns them. */
export type DeploymentContext = z.output<typeof deploymentContextSchema>;

function unknownStageValues(keys: readonly string[]): string {
  return `A stage in cdk.json has ${keys.map(quoted).join(', ')}, which is no context value of this app (known: ${[...Object.keys(contextKeys), 'account', 'region'].join(', ')}).`;
}
