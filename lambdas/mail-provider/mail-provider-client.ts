/** The client of the configured provider (`MAIL_PROVIDER`). */

import type { MailProviderClient, MailProviderSettings } from './lead';
import { kitClient } from './kit';
import { mailchimpClient } from './mailchimp';
import { mailerLiteClient } from './mailerlite';
import { signedWebhookClient } from './signed-webhook';

export function mailProviderClient(settings: MailProviderSettings): MailProviderClient {
  switch (settings.provider) {
    case 'kit':
      return kitClient(settings);
    case 'mailerlite':
      return mailerLiteClient(settings);
    case 'mailchimp':
      return mailchimpClient(settings);
    case 'webhook':
      return signedWebhookClient(settings);
  }
}

export type { Lead, MailProviderClient, MailProviderSettings, RemovalAnswer } from './lead';
export type { ProviderAnswer } from './provider-call';
