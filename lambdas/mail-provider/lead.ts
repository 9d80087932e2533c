/** What the hand-off gives a provider, and what an erasure asks of it. */

import type { MailProvider } from '../../core/data/mail-provider';
import type { ProviderAnswer } from './provider-call';

/** One consenting lead: a saved request's reader. */
export interface Lead {
  /** The request's id: the webhook's stable `webhook-id` comes from it. */
  readonly id: string;
  readonly name: string;
  readonly email: string;
  /** ISO 8601. */
  readonly requestedAt: string;
  /** ISO 8601: when the reader consented. */
  readonly consentedAt: string;
}

/** What an erasure did at the provider. */
export interface RemovalAnswer {
  /**
   * `removed`: the provider deleted the address; `absent`: it never held it; `unsubscribed`: the
   * provider's API can only unsubscribe it; `notified`: the webhook's receiver was told;
   * `failed`: the call failed (the tool reports it as a failure).
   */
  readonly kind: 'removed' | 'absent' | 'unsubscribed' | 'notified' | 'failed';
  readonly detail: string;
  /** What the author must still do by hand in the provider, when anything. */
  readonly authorMust?: string;
}

export interface MailProviderClient {
  readonly provider: MailProvider;
  /** Adds the lead to the author's list: an upsert, so a second call changes nothing. */
  handOff(lead: Lead): Promise<ProviderAnswer>;
  /** Removes the address from the provider (the leads tool's erase). */
  remove(email: string): Promise<RemovalAnswer>;
}

/** The API key or signing secret, the list, and where the provider answers (stand-ins in tests). */
export interface MailProviderSettings {
  readonly provider: MailProvider;
  /** The form (Kit), group (MailerLite) or audience (Mailchimp). */
  readonly list?: string;
  /** For `webhook`. */
  readonly webhookUrl?: string;
  /** The provider's API key, or the webhook's signing secret (`whsec_…`). */
  readonly key: string;
  /** @default the provider's own API address */
  readonly baseUrl?: string;
  /**
   * Whether the provider asks the reader to confirm before they join (double opt-in): Mailchimp's
   * `pending`, Kit's inactive subscriber on the form, MailerLite's `unconfirmed`; the webhook
   * passes it on. `false` (`mailProviderDoubleOptIn=false`) adds them at once, as confirmed.
   * @default true
   */
  readonly doubleOptIn?: boolean;
  /** How long one call may take. @default providerCallTimeoutMs (provider-call.ts) */
  readonly timeoutMs?: number;
}
