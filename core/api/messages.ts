/**
 * The API's public messages, word for word: the failure catalogue (`catalogue/failures.ts`) picks
 * each failure's from here, and the OpenAPI document shows them as examples. Messages for
 * server-side failures are fixed sentences: no stack trace, SDK message or internal detail ever
 * reaches the visitor. The request's own field messages live with its schema (request-schema.ts).
 */

import { maxBodyBytes } from './request-limits';

export const cheatSheetSentMessage = "We've sent the cheat sheet to your email. Please check your inbox.";

/** `method` was sent to a route that takes `allowed` (its catalogue entry's method). */
export function methodNotAllowedMessage(method: string, allowed: string): string {
  return `${method} is not allowed here: please send the request with ${allowed}.`;
}

/** A method other than `method`, for an example of the 405 a route answers. */
export function anotherMethodThan(method: string): string {
  return method === 'GET' ? 'POST' : 'GET';
}

export const unsupportedMediaTypeMessage = 'Please send the request as JSON (Content-Type: application/json).';
/** The form route's 415: it takes the form as a browser sends it. */
export const formNotUrlencodedMessage =
  'Please send the form as a browser does (Content-Type: application/x-www-form-urlencoded).';
/**
 * A browser says where a form was sent from (`Sec-Fetch-Site`): another site's page posting to the
 * form route would make its visitors request cheat sheets for addresses they never typed.
 */
export const crossSiteFormMessage = "The form can only be sent from this site's own page.";
export const bodyTooLargeMessage = `The request body is larger than ${maxBodyBytes / 1024} KB.`;
export const emptyBodyMessage = 'The request body is empty: please send your name and email.';
export const bodyNotUtf8Message = 'The request body is not valid UTF-8 text.';
export const bodyNotJsonMessage = 'The request body is not valid JSON.';

export function addressDailyCapReachedMessage(limit: number): string {
  return `This email address has already received the cheat sheet ${limit} ${
    limit === 1 ? 'time' : 'times'
  } in the last 24 hours. Please check your inbox, or try again tomorrow.`;
}

// No 'domain' or 'verify' in the next eight: the page keys its configuration alert on those words.

export function clientHourlySendCapReachedMessage(limit: number): string {
  return `Too many cheat sheets have been requested from your network in the last hour (at most ${limit}). Please try again later.`;
}

export function networkHourlySendCapReachedMessage(limit: number): string {
  return `Too many cheat sheets have been requested from your wider network (an office, a campus or a mobile provider) in the last hour (at most ${limit}). Please try again later.`;
}

export function clientHourlySaveCapReachedMessage(limit: number): string {
  return `Too many requests have been sent from your network in the last hour (at most ${limit}). Please try again later.`;
}

export function networkHourlySaveCapReachedMessage(limit: number): string {
  return `Too many requests have been sent from your wider network (an office, a campus or a mobile provider) in the last hour (at most ${limit}). Please try again later.`;
}

/** The recipient's address cannot take mail (no such host, or one that refuses all mail): most often a typo. */
export const undeliverableAddressMessage =
  "We can't deliver email to this address. Please check it for typos and try again.";

/**
 * The mailbox bounced for good or its owner reported the e-mail as spam: it is not mailed again.
 * Says neither "domain" nor "verify", so the page shows its ordinary error, not the
 * configuration error.
 */
export const addressSuppressedMessage =
  "We can't send email to this address any more: an earlier email to it bounced or was reported as spam. Please use another address.";

/** SES refused the recipient's address itself (not a valid address to SES, or on a suppression list). */
export const recipientRejectedMessage = "We can't send email to this address. Please check it, or use another address.";

/** The daily send budget is spent: the service cannot send for now, and says so plainly. */
export const dailySendBudgetSpentMessage = "We can't send the cheat sheet right now. Please try again later.";

/** Behind CloudFront, a request that did not come through it (a direct call to the API's own address). */
export const untrustedOriginMessage = 'Requests must come through the website: please use the form there.';

export const originSecretUnavailableMessage =
  'The service is temporarily unavailable. Please try again in a few minutes.';

/** The page shows its 'Email Configuration Error' when a send error contains 'domain' or 'verify'. */
export const senderNotVerifiedMessage =
  "The sender's email domain is not verified with the email service. Please verify the domain or contact support.";
export const emailRejectedMessage =
  'The email service could not deliver the cheat sheet. Please try again later or contact support.';
export const emailServiceUnavailableMessage =
  'The email service is temporarily unavailable. Please try again in a few minutes.';
export const storageUnavailableMessage =
  'Our request database is temporarily unavailable. Please try again in a few minutes.';
export const cheatSheetUnavailableMessage =
  'The cheat sheet is temporarily unavailable. Please try again later or contact support.';
export const misconfiguredMessage = 'The service is not configured correctly. Please contact support.';
export const unexpectedFailureMessage = 'Something went wrong on our side. Please try again later.';

/** The `Idempotency-Key` header is there but not a usable key. */
export const invalidIdempotencyKeyMessage =
  'The Idempotency-Key header must be 1 to 255 visible ASCII characters: a fresh random value (a UUID) per submission.';
/** A repeat of a request whose first try has not answered yet (the IETF draft's 409). */
export const idempotencyKeyInUseMessage =
  'This request is still being processed. Please wait a moment before trying again.';
/** A key sent again with another body (the IETF draft's 422). */
export const idempotencyKeyReusedMessage =
  'This Idempotency-Key was already used for a different request: please send a new key with new details.';

/**
 * The send's proof of work (core/api/proof-of-work.ts) refused: why, in the visitor's words. The
 * page fetches a fresh challenge on every submit, so 'send the form again' is the remedy for each.
 */
export const proofOfWorkMessages = {
  missing: "This request lacks the form's proof of work: please send the form again from the page.",
  malformed: "The form's proof of work could not be read: please send the form again.",
  invalid: "The form's proof of work is not valid: please send the form again.",
  expired: "The form's proof of work has expired: please send the form again.",
  replayed: "The form's proof of work was already used: please send the form again.",
} as const;

/** An example field error, as the request schema words it (a test holds the schema to it). */
export const invalidEmailExampleMessage = 'Please enter a valid email address.';
