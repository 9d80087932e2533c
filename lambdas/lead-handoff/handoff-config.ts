/** The hand-off function's configuration, from its variables (infra/constructs/lead-handoff.ts sets them). */

import {
  doubleOptInOff,
  isMailProvider,
  leadHandoffVariables,
  mailProviders,
  type MailProvider,
} from '../../core/data/mail-provider';

export interface LeadHandoffConfig {
  readonly tableName: string;
  readonly provider: MailProvider;
  readonly list?: string;
  readonly webhookUrl?: string;
  /** `MAIL_PROVIDER_DOUBLE_OPT_IN`: `off` hands readers off as confirmed; anything else (or unset) asks the provider for its double opt-in. */
  readonly doubleOptIn: boolean;
  readonly secretArn: string;
  readonly queueUrl: string;
  readonly deadLetterQueueUrl: string;
}

export function readLeadHandoffConfig(env: NodeJS.ProcessEnv): LeadHandoffConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  const names = leadHandoffVariables;
  const missing = [
    names.tableName,
    names.mailProvider,
    names.secretArn,
    names.queueUrl,
    names.deadLetterQueueUrl,
  ].filter((name) => value(name) === undefined);
  if (missing.length > 0) throw new Error(`The hand-off is not configured: ${missing.join(', ')} missing.`);
  const provider = value(names.mailProvider);
  if (!isMailProvider(provider)) {
    throw new Error(`${names.mailProvider} "${provider}" is none of ${mailProviders.join(', ')}.`);
  }
  const list = value(names.mailProviderList);
  const webhookUrl = value(names.webhookUrl);
  if (provider === 'webhook' && webhookUrl === undefined)
    throw new Error(`${names.webhookUrl} missing for the webhook.`);
  if (provider !== 'webhook' && list === undefined)
    throw new Error(`${names.mailProviderList} missing for ${provider}.`);
  return {
    tableName: value(names.tableName)!,
    provider,
    ...(list !== undefined && { list }),
    ...(webhookUrl !== undefined && { webhookUrl }),
    doubleOptIn: value(names.doubleOptIn) !== doubleOptInOff,
    secretArn: value(names.secretArn)!,
    queueUrl: value(names.queueUrl)!,
    deadLetterQueueUrl: value(names.deadLetterQueueUrl)!,
  };
}
