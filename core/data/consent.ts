/**
 * The consent a request records when the reader ticked the confirmation (the page and the
 * no-script form both require it): when, the words ticked, the privacy page's version and the
 * form's. Stored as the request item's `consent` map; requests saved before it existed, and
 * direct calls without the confirmation, have none and stay valid.
 */

import { cheatSheetFormVersion, formCopy, mailingListChoice } from '../content/cheat-sheet';
import { formNoticeText } from '../content/mailing-list-notice';
import { formPrivacyNotice, privacyVersion } from '../content/privacy';
import { mailProviderNames, type MailProvider } from './mail-provider';

/** The reader's answer to the form's second box, "join the author's mailing list" (only with a provider). */
export interface MailingListAnswer {
  /** Whether the reader ticked it: only then is the request handed to the provider. */
  readonly joined: boolean;
  /** The box's words, as the reader read them (the author's, content/cheat-sheet.yaml). */
  readonly statement: string;
}

export interface ConsentRecord {
  /** ISO 8601: when the request was saved. */
  readonly at: string;
  /** The confirmation the reader ticked, word for word. */
  readonly statement: string;
  /** The privacy page's version (its last change) at that time. */
  readonly privacy_version: string;
  /** The form's version at that time. */
  readonly form_version: string;
  /** With a mail provider: its name, as the privacy page and the note under the form gave it. */
  readonly mail_provider?: string;
  /** With a mail provider: the note under the form, word for word, naming the provider. */
  readonly notice?: string;
  /** With a mail provider: the reader's answer to the mailing-list box, ticked or not, and its words. */
  readonly mailing_list?: MailingListAnswer;
}

/**
 * With a mail provider, the record also names it, keeps the note under the form as the reader
 * read it (core/content/mailing-list-notice.ts) and the reader's answer to the mailing-list box:
 * the box starts unticked, so only a reader who ticked it (`joinedMailingList`) joins.
 */
export function consentRecordAt(at: Date, mailProvider?: MailProvider, joinedMailingList = false): ConsentRecord {
  return {
    at: at.toISOString(),
    statement: formCopy.confirmLabel,
    privacy_version: privacyVersion,
    form_version: cheatSheetFormVersion,
    ...(mailProvider !== undefined && {
      mail_provider: mailProviderNames[mailProvider],
      notice: formNoticeText(formPrivacyNotice.text, mailProvider),
      mailing_list: { joined: joinedMailingList, statement: mailingListChoice },
    }),
  };
}

interface StoredConsent {
  readonly consent?: { readonly mail_provider?: string; readonly mailing_list?: { readonly joined?: unknown } };
}

/** Whether a stored request's reader chose to join the author's list (false for any request saved without the box). */
export function joinedMailingList(item: StoredConsent): boolean {
  return item.consent?.mailing_list?.joined === true;
}

/**
 * The provider (as the form named it) whose list a stored request's reader chose to join, or
 * undefined: what the cheat-sheet e-mail tells the reader, however long after the request it is built.
 */
export function mailingListJoinedAt(item: StoredConsent): string | undefined {
  return joinedMailingList(item) ? item.consent?.mail_provider : undefined;
}
