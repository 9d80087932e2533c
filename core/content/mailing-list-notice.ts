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
  return `We use your name and e-mail to send you the cheat sheet and, only if you tick the box above, to add you to ${listAt(provider)}.`;
}

/**
 * What joining looks like at each provider: the hand-off asks for its double opt-in unless the
 * deployment turns it off (`mailProviderDoubleOptIn`), which the page cannot know: hence "may".
 */
const confirmationAt: Readonly<Record<MailProvider, string>> = {
  kit: 'Kit may first e-mail you to confirm that you want to join.',
  mailerlite: 'MailerLite may first e-mail you to confirm that you want to join.',
  mailchimp: 'Mailchimp may first e-mail you to confirm that you want to join.',
  webhook: 'That service may first e-mail you to confirm that you want to join.',
};

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
      `The form offers a second box, unticked, to join the author's mailing list. Only if you tick it are your name and e-mail address also added to ${listAt(provider)}, which stores them for the author under its own terms; if you leave it unticked, they go nowhere but to this site. ${confirmationAt[provider]} Every e-mail from the list has a link to unsubscribe.`,
      erasureAt[provider],
    ],
  };
}
