/**
 * The consent a request records when the reader ticked the confirmation (the page and the
 * no-script form both require it): when, the words ticked, the privacy page's version and the
 * form's. Stored as the request item's `consent` map; requests saved before it existed, and
 * direct calls without the confirmation, have none and stay valid.
 */

import { cheatSheetFormVersion, formCopy } from '../content/cheat-sheet';
import { formNoticeText } from '../content/mailing-list-notice';
import { formPrivacyNotice, privacyVersion } from '../content/privacy';
import { mailProviderNames, type MailProvider } from './mail-provider';

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
}

/**
 * With a mail provider, the record also names it and keeps the note under the form as the reader
 * read it (core/content/mailing-list-notice.ts): that the request adds them to the author's list there.
 */
export function consentRecordAt(at: Date, mailProvider?: MailProvider): ConsentRecord {
  return {
    at: at.toISOString(),
    statement: formCopy.confirmLabel,
    privacy_version: privacyVersion,
    form_version: cheatSheetFormVersion,
    ...(mailProvider !== undefined && {
      mail_provider: mailProviderNames[mailProvider],
      notice: formNoticeText(formPrivacyNotice.text, mailProvider),
    }),
  };
}
