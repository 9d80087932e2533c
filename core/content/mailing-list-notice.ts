/**
 * What the page tells readers when their lead goes to the author's mail provider (`mailProvider`,
 * given to the build as `MAIL_PROVIDER`): the note under the form and a section of the privacy
 * page, naming the provider. Without a provider, the author's own notice stands and the privacy
 * page has no such section. Fixed here, not in content/: the provider is a deployment's setting,
 * and each sentence must stay true of what the hand-off and the erasure do.
 */

import { mailProviderNames, type MailProvider } from '../data/mail-provider';
import type { PrivacySection } from './privacy';

const listAt = (provider: MailProvider) =>
  provider === 'webhook'
    ? "the author's own mailing-list service"
    : `the author's mailing list at ${mailProviderNames[provider]}`;

/** The note under the form: the author's own (`content/privacy.yaml`), or, with a provider, one that names it. */
export function formNoticeText(authorsNotice: string, provider: MailProvider | undefined): string {
  if (provider === undefined) return authorsNotice;
  return `We use your name and e-mail to send you the cheat sheet and to add you to ${listAt(provider)}.`;
}

/** How an erasure reaches the provider: by its API, or by the author's hand (Kit's API only unsubscribes). */
const erasureAt: Readonly<Record<MailProvider, string>> = {
  kit: 'An erasure request removes you from Kit too: the site unsubscribes you there and the author deletes you.',
  mailerlite: 'An erasure request removes you from MailerLite too.',
  mailchimp: 'An erasure request deletes you from Mailchimp too.',
  webhook: 'An erasure request removes you from that service too: the site tells it, and the author makes sure.',
};

/** The privacy page's section on the mailing list, or none without a provider. */
export function mailingListSection(provider: MailProvider | undefined): PrivacySection | undefined {
  if (provider === undefined) return undefined;
  return {
    heading: "The author's mailing list",
    paragraphs: [
      `When you request the cheat sheet, your name and e-mail address are also added to ${listAt(provider)}, which stores them for the author under its own terms. Every e-mail from it has a link to unsubscribe.`,
      erasureAt[provider],
    ],
  };
}
