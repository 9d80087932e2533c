/**
 * Sends one e-mail with one attachment through SESv2 `SendEmail` Simple content (SES builds the
 * MIME message), and turns SES failures into the domain's typed errors.
 *
 * SendEmail is not idempotent: a request that reached SES may have been accepted even when its
 * answer never came back. So the SES client makes one attempt (lambdas/runtime/aws-clients.ts) and
 * this sender retries only a failure that proves SES accepted nothing: a connection that was
 * refused or never opened, or a throttling answer. A timeout after the request left or a broken
 * connection is never retried (`sesMayHaveAccepted`). And no attempt starts with less time left
 * in the function than the attempt may take.
 */

import { setTimeout as delay } from 'node:timers/promises';
import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { timeNeededBeforeSesMs } from '../../core/config/sdk-timeouts';
import { ProductError } from '../runtime/errors';
import type { CheatSheetEmail } from '../../core/documents/cheat-sheet-email';
import { requestIdMessageTag } from '../../core/data/delivery-status';

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
  /**
   * The request's id, sent as the message tag `request_id`: SES puts the tags in every event of
   * the message, so the events function finds the record by its key, with no index.
   */
  readonly requestId?: string;
}

export interface SendTime {
  /** The time left in the function (Lambda's getRemainingTimeInMillis). */
  readonly remainingTimeMs: () => number;
}

export type SendEmail = (email: OutgoingEmail, time?: SendTime) => Promise<{ messageId: string }>;

/** SendEmail attempts: the first, and one more only after a failure that proves nothing was accepted. */
export const sendEmailAttempts = 2;

/**
 * The time an attempt needs before it starts (core/config/sdk-timeouts.ts): its own timeout, the
 * record of its outcome after it when DynamoDB stalls, and the reply: 12 s.
 */
export const timeNeededPerAttemptMs = timeNeededBeforeSesMs;

/** Waits before the second attempt: SES's throttling clears within a second (jittered 100-300 ms). */
const retryPauseMs = () => 100 + Math.random() * 200;

/** Socket errors raised before a byte of the request was written: SES cannot have seen it. */
const notConnectedCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** SES's answers that it throttled the call: it refused it, accepting nothing. */
const throttlingNames = new Set(['TooManyRequestsException', 'ThrottlingException']);

/** True when the failure proves SES accepted nothing, so another attempt cannot send twice. */
export function provesNothingAccepted(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && notConnectedCodes.has(code)) return true;
  // The connection timeout: no socket was ever opened (@smithy/node-http-handler's wording).
  if (error.name === 'TimeoutError' && /did not establish a connection/.test(error.message)) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return throttlingNames.has(error.name) && status !== undefined && status >= 400 && status < 500;
}

/**
 * Whether a send failed because SES throttled it (`TooManyRequestsException`, "Maximum sending rate
 * exceeded."): SES accepted nothing, so the same request may be sent again once the rate allows.
 */
export function wasThrottled(error: unknown): boolean {
  const cause = error instanceof ProductError ? error.cause : error;
  return cause instanceof Error && throttlingNames.has(cause.name);
}

const temporaryFailures = new Set([
  'TooManyRequestsException',
  'LimitExceededException',
  'ThrottlingException',
  'InternalFailure',
  'ServiceUnavailable',
]);

/**
 * In the SES sandbox SES authorizes the recipient's identity too: an AccessDeniedException on
 * `…:identity/<the reader's address>`, which the send role (rightly) does not name. An identity
 * of the sender's own (its address or its domain) means a missing grant instead: a rejection.
 */
function namesAnotherIdentity(message: string, sender: string | undefined): boolean {
  const identity = /:identity\/([^\s'",]+)/.exec(message)?.[1]?.toLowerCase();
  if (identity === undefined) return false;
  if (sender === undefined) return true;
  const address = sender.toLowerCase();
  return identity !== address && identity !== address.slice(address.lastIndexOf('@') + 1);
}

/** Network failures of a connection that was made: the request may have reached SES before it broke. */
const answerLostCodes: ReadonlySet<string> = new Set(['ETIMEDOUT', 'ECONNRESET', 'EPIPE']);

/**
 * Whether SES may have accepted a call that failed: it gave no answer (no HTTP status) after the
 * request left, i.e. the request timed out or its connection broke once made. A refused or
 * never-made connection, a DNS failure or an error before the call (a missing region) proves
 * SES took nothing.
 */
export function sesMayHaveAccepted(error: unknown): boolean {
  const failure = error as { $metadata?: { httpStatusCode?: number }; code?: unknown; syscall?: unknown } | undefined;
  if (failure?.$metadata?.httpStatusCode !== undefined) return false;
  // The operating system's own connect timeout: the connection was never made.
  if (failure?.syscall === 'connect') return false;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : '';
  // @smithy/node-http-handler's request and socket timeouts; its connection timeout never connected.
  if (name === 'TimeoutError') return !/did not establish a connection/i.test(message);
  return typeof failure?.code === 'string' && answerLostCodes.has(failure.code);
}

/** Which typed error an SES failure is; `sender` (the From address) tells the sandbox's refusals from a missing grant. */
/**
 * SES's words for an address it will not take as a recipient (SESv2 SendEmail answers 400
 * `BadRequestException` "Illegal address", "Missing domain", "Local address contains control or
 * whitespace", "Domain contains illegal character"...; a `MessageRejected` for a blacklisted or
 * suppressed address). The From address is the stack's own, validated at synth, so on a
 * recipient-only send these name the visitor's address.
 */
const recipientAddressProblem =
  /illegal address|missing (?:domain|local)|(?:local address|local part|domain) (?:contains|ends|starts|is)|address (?:blacklisted|is on the suppression list)|suppress/i;

/** Whether SES refused the recipient: its words for a bad address, or the recipient's address named in a rejection. */
function rejectsRecipient(name: string, message: string, recipient: string | undefined): boolean {
  if (/sender|from address|not verified|identity/i.test(message)) return false;
  if (name === 'BadRequestException' || name === 'InvalidParameterValue') return recipientAddressProblem.test(message);
  if (name === 'MessageRejected') {
    return (
      recipientAddressProblem.test(message) ||
      (recipient !== undefined && message.toLowerCase().includes(recipient.toLowerCase()))
    );
  }
  return false;
}

/**
 * Which typed error an SES failure is; `sender` (the From address) tells the sandbox's refusals
 * from a missing grant, `recipient` (the To address) tells a rejection of the visitor's address
 * from one of the product's own making.
 */
export function classifySesError(error: unknown, sender?: string, recipient?: string): Error {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : '';
  if (
    name === 'MailFromDomainNotVerifiedException' ||
    (name === 'MessageRejected' && /not verified/i.test(message)) ||
    (name === 'AccessDeniedException' && namesAnotherIdentity(message, sender))
  ) {
    return new ProductError(
      'senderNotVerified',
      'SES refused an unverified identity (the sender, or in the sandbox the recipient)',
      {
        cause: error,
      },
    );
  }
  // The configuration set's sending was paused (the bounce or complaint alarm), or SES paused the account.
  if (name === 'SendingPausedException') {
    return new ProductError('sendingPaused', 'SES sending is paused', { cause: error });
  }
  // The visitor's own address: a 400 of theirs, never a page (docs/abuse.md).
  if (rejectsRecipient(name, message, recipient)) {
    return new ProductError('recipientRejected', 'SES refused the recipient address', { cause: error });
  }
  const httpStatus = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  // The same reply as an unavailable SES; the send step tells it apart by its cause (sesMayHaveAccepted).
  if (sesMayHaveAccepted(error)) {
    return new ProductError(
      'emailServiceUnavailable',
      'SES gave no answer after the request left: it may have sent it',
      {
        cause: error,
      },
    );
  }
  // No HTTP status here means SES was never reached (a refused connection, DNS, a connection timeout).
  if (temporaryFailures.has(name) || httpStatus === undefined || httpStatus >= 500) {
    return new ProductError('emailServiceUnavailable', 'SES is unavailable', { cause: error });
  }
  return new ProductError('emailRejected', 'SES rejected the message', { cause: error });
}

export function sesEmailSender(ses: SESv2Client): SendEmail {
  return async ({ from, to, subject, html, text, attachment, configurationSetName, requestId }, time) => {
    const command = new SendEmailCommand({
      ...(configurationSetName !== undefined && { ConfigurationSetName: configurationSetName }),
      FromEmailAddress: from,
      ...(requestId !== undefined && { EmailTags: [{ Name: requestIdMessageTag, Value: requestId }] }),
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
    });
    for (let attempt = 1; ; attempt += 1) {
      if (time && time.remainingTimeMs() < timeNeededPerAttemptMs) {
        throw new ProductError(
          'emailServiceUnavailable',
          `Too little time left in the function to call SES (${time.remainingTimeMs()} ms, ${timeNeededPerAttemptMs} ms needed): nothing sent`,
        );
      }
      try {
        const result = await ses.send(command);
        return { messageId: result.MessageId ?? '' };
      } catch (error) {
        if (attempt < sendEmailAttempts && provesNothingAccepted(error)) {
          await delay(retryPauseMs());
          continue;
        }
        // The recipient too: SES naming the reader's address is the visitor's 400, never a page.
        throw classifySesError(error, from, to);
      }
    }
  };
}
