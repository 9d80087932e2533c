/**
 * The cheat sheet's e-mail to one reader, as both senders send it (the send route's
 * send-cheat-sheet.ts and the queued sender's queued-send.ts): the text built from the content
 * (core/documents/cheat-sheet-email.ts) with the reader's answer about the list, the PDF attached,
 * through the product's configuration set, tagged with the request it answers.
 */

import { buildCheatSheetEmail } from '../../core/documents/cheat-sheet-email';
import type { OutgoingEmail } from '../mail/email-sender';

/** What the sender is configured with. */
export interface CheatSheetSender {
  readonly senderEmail: string;
  readonly attachmentFileName: string;
  /** @default none: SES's default (the local twin, tests) */
  readonly configurationSetName?: string;
}

/** The reader and the request, as stored with it. */
export interface CheatSheetRecipient {
  readonly email: string;
  readonly name: string;
  readonly requestId: string;
  /** When the reader said yes to the mailing list: the e-mail's promise follows the answer. */
  readonly joinedListAt?: string;
}

export function cheatSheetMessage(
  sender: CheatSheetSender,
  recipient: CheatSheetRecipient,
  pdf: Uint8Array,
): OutgoingEmail {
  return {
    from: sender.senderEmail,
    to: recipient.email,
    ...buildCheatSheetEmail({ name: recipient.name, joinedListAt: recipient.joinedListAt }),
    attachment: { fileName: sender.attachmentFileName, contentType: 'application/pdf', content: pdf },
    configurationSetName: sender.configurationSetName,
    requestId: recipient.requestId,
  };
}
