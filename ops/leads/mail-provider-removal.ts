/**
 * Erasure at the author's mail provider (with `mailProvider`): which provider, list and key the
 * deployment uses (the stack's outputs with `--stack`, else the functions' variables), and the
 * removal of each spelling of the address there through the provider's own call
 * (lambdas/mail-provider/): MailerLite forgets the subscriber, Mailchimp deletes the member
 * permanently; Kit's API can only unsubscribe and the webhook can only pass the request on, so the
 * report says what the author must delete by hand. A call that failed is a failure (exit 1).
 */

import { DescribeStacksCommand, type CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  isMailProvider,
  leadHandoffVariables,
  mailProviderNames,
  type MailProvider,
} from '../../core/data/mail-provider';
import { mailProviderClient, type MailProviderClient } from '../../lambdas/mail-provider/mail-provider-client';
import { providerKeyReader } from '../../lambdas/mail-provider/provider-key';

/** The stack outputs naming the provider (infra/constructs/lead-handoff.ts). */
export const mailProviderOutputs = {
  provider: 'MailProvider',
  list: 'MailProviderList',
  webhookUrl: 'MailProviderWebhookUrl',
  secretArn: 'MailProviderSecretArn',
} as const;

interface ProviderSource {
  readonly provider: MailProvider;
  readonly list?: string;
  readonly webhookUrl?: string;
  readonly secretArn: string;
}

async function fromSource(source: ProviderSource | undefined, secrets: SecretsManagerClient) {
  if (!source) return undefined;
  const key = await providerKeyReader(secrets, source.secretArn)();
  return mailProviderClient({ provider: source.provider, list: source.list, webhookUrl: source.webhookUrl, key });
}

/** The deployed stack's provider, or undefined when it hands leads to none. */
export async function mailProviderFromStack(
  cloudFormation: CloudFormationClient,
  secrets: SecretsManagerClient,
  stackName: string,
): Promise<MailProviderClient | undefined> {
  const { Stacks = [] } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
  const outputs = new Map((Stacks[0]?.Outputs ?? []).map(({ OutputKey, OutputValue }) => [OutputKey, OutputValue]));
  const provider = outputs.get(mailProviderOutputs.provider);
  const secretArn = outputs.get(mailProviderOutputs.secretArn);
  return fromSource(
    isMailProvider(provider) && secretArn
      ? {
          provider,
          list: outputs.get(mailProviderOutputs.list),
          webhookUrl: outputs.get(mailProviderOutputs.webhookUrl),
          secretArn,
        }
      : undefined,
    secrets,
  );
}

/** The provider the functions' variables name (MAIL_PROVIDER…), or undefined. */
export async function mailProviderFromEnvironment(
  env: NodeJS.ProcessEnv,
  secrets: SecretsManagerClient,
): Promise<MailProviderClient | undefined> {
  const provider = env[leadHandoffVariables.mailProvider]?.trim();
  const secretArn = env[leadHandoffVariables.secretArn]?.trim();
  return fromSource(
    isMailProvider(provider) && secretArn
      ? {
          provider,
          list: env[leadHandoffVariables.mailProviderList]?.trim(),
          webhookUrl: env[leadHandoffVariables.webhookUrl]?.trim(),
          secretArn,
        }
      : undefined,
    secrets,
  );
}

/** Removes each spelling at the provider; the report's lines, and whether any removal failed. */
export async function removeFromMailProvider(
  client: MailProviderClient,
  emails: readonly string[],
): Promise<{ readonly report: readonly string[]; readonly failures: readonly string[] }> {
  const name = mailProviderNames[client.provider];
  const report: string[] = [];
  const failures: string[] = [];
  const authorMust = new Set<string>();
  for (const email of emails) {
    const answer = await client.remove(email);
    if (answer.authorMust) authorMust.add(answer.authorMust);
    if (answer.kind === 'failed') {
      failures.push(`Could not remove ${email} from ${name} (${answer.detail}): remove it there by hand.`);
    } else {
      report.push(`${email}: ${answer.kind} (${answer.detail}).`);
    }
  }
  return {
    report: [`\nMail provider (${name}):`, ...report, ...[...authorMust].map((line) => `The author must: ${line}`)],
    failures,
  };
}
