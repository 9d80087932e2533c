/**
 * Sends one e-mail with one attachment through SESv2 `SendEmail` Simple content (SES builds the
 * MIME message), and turns SES failures into the domain's typed errors.
 */

import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { EmailRejectedError, EmailServiceUnavailableError, SenderNotVerifiedError } from '../shared/errors';
import type { CheatSheetEmail } from '../../core/documents/cheat-sheet-email';

export interface OutgoingEmail extends CheatSheetEmail {
  readonly from: string;
  /** Already validated as a plain address by the request schema. */
  readonly to: string;
  readonly attachment: { readonly fileName: string; readonly contentType: string; readonly content: Uint8Array };
  /**
   * The SES configuration set to send through: reputation metrics, suppression of addresses that
   * bounce or complain, and bounce/complaint/reject/delivery events (infra/constructs/mail.ts).
   *
   * @default none: SES's account defaults (the local emulator has no configuration sets)
   */
  readonly configurationSetName?: string;
}

export type SendEmail = (email: OutgoingEmail) => Promise<{ messageId: string }>;

const temporaryFailures = new Set([
  'TooManyRequestsException',
  'LimitExceededException',
  'ThrottlingException',
  'InternalFailure',
  'ServiceUnavailable',
]);

/** Which typed error an SES failure is. */
export function classifySesError(error: unknown): Error {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : '';
  if (name === 'MailFromDomainNotVerifiedException' || (name === 'MessageRejected' && /not verified/i.test(message))) {
    return new SenderNotVerifiedError('SES refused an unverified identity', { cause: error });
  }
  const httpStatus = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  // No HTTP status at all means SES was never reached (refused connection, timeout, DNS).
  if (temporaryFailures.has(name) || httpStatus === undefined || httpStatus >= 500) {
    return new EmailServiceUnavailableError('SES is unavailable', { cause: error });
  }
  return new EmailRejectedError('SES rejected the message', { cause: error });
}

export function sesEmailSender(ses: SESv2Client): SendEmail {
  return async ({ from, to, subject, html, text, attachment, configurationSetName }) => {
    try {
      const result = await ses.send(
        new SendEmailCommand({
          ...(configurationSetName !== undefined && { ConfigurationSetName: configurationSetName }),
          FromEmailAddress: from,
          Destination: { ToAddresses: [to] },
          Content: {
            Simple: {
              Subject: { Data: subject, Charset: 'UTF-8' },
              Body: { Html: { Data: html, Charset: 'UTF-8' }, Text: { Data: text, Charset: 'UTF-8' } },
              Attachments: [
                {
                  FileName: attachment.fileName,
                  ContentType: attachment.contentType,
                  ContentDisposition: 'ATTACHMENT',
                  ContentTransferEncoding: 'BASE64',
                  RawContent: attachment.content,
                },
              ],
            },
          },
        }),
      );
      return { messageId: result.MessageId ?? '' };
    } catch (error) {
      throw classifySesError(error);
    }
  };
}
