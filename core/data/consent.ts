/**
 * The consent a request records when the reader ticked the confirmation (the page and the
 * no-script form both require it): when, the words ticked, the privacy page's version and the
 * form's. Stored as the request item's `consent` map; requests saved before it existed, and
 * direct calls without the confirmation, have none and stay valid.
 */

import { cheatSheetFormVersion, formCopy } from '../content/cheat-sheet';
import { privacyVersion } from '../content/privacy';

export interface ConsentRecord {
  /** ISO 8601: when the request was saved. */
  readonly at: string;
  /** The confirmation the reader ticked, word for word. */
  readonly statement: string;
  /** The privacy page's version (its last change) at that time. */
  readonly privacy_version: string;
  /** The form's version at that time. */
  readonly form_version: string;
}

export function consentRecordAt(at: Date): ConsentRecord {
  return {
    at: at.toISOString(),
    statement: formCopy.confirmLabel,
    privacy_version: privacyVersion,
    form_version: cheatSheetFormVersion,
  };
}
