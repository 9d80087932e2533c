/**
 * What the two routes answer: the shape of every reply body, the public messages, and which
 * statuses each route gives and why. The functions reply with these (`lambdas/shared/http-reply.ts`
 * maps their typed errors onto them) and `docs/openapi.yaml` is generated from them
 * (`core/api/openapi.ts`), so the description cannot drift from what is sent.
 *
 * Public messages for server-side failures are fixed sentences: no stack trace, SDK message or
 * internal detail ever reaches the visitor.
 */

// zod/mini, as the request schema: the same shapes give the types here and the JSON Schemas in the document.
import * as z from 'zod/mini';

import { defaultClientHourlyLimit, defaultDailyLimit, defaultDailySendBudget } from '../config/function-environment';
import { maxBodyBytes, maxWebsiteLength } from './request-limits';
import type { apiRoutes } from './routes';

/** A route by its name in `apiRoutes`. */
export type ApiRouteName = keyof typeof apiRoutes;

const errorText = z.string().check(z.minLength(1));

/** `201` from the save route: the id of the stored request. */
export const requestSavedBody = z.strictObject({ id: z.uuid() });
/** Every failure of the save route. */
export const saveFailureBody = z.strictObject({ error: errorText });
/** `200` from the send route. */
export const cheatSheetSentBody = z.strictObject({ success: z.literal(true), message: z.string() });
/** Every failure of the send route: the page reads `success` first, then `error`. */
export const sendFailureBody = z.strictObject({ success: z.literal(false), error: errorText });

export type RequestSavedBody = z.output<typeof requestSavedBody>;
export type SaveFailureBody = z.output<typeof saveFailureBody>;
export type CheatSheetSentBody = z.output<typeof cheatSheetSentBody>;
export type SendFailureBody = z.output<typeof sendFailureBody>;

// The public messages. The request's own field messages live with its schema (request-schema.ts).

export const cheatSheetSentMessage = "We've sent the cheat sheet to your email. Please check your inbox.";

export function methodNotAllowedMessage(method: string): string {
  return `${method} is not allowed here: please send the request with POST.`;
}

export const unsupportedMediaTypeMessage = 'Please send the request as JSON (Content-Type: application/json).';
export const bodyTooLargeMessage = `The request body is larger than ${maxBodyBytes / 1024} KB.`;
export const emptyBodyMessage = 'The request body is empty: please send your name and email.';
export const bodyNotUtf8Message = 'The request body is not valid UTF-8 text.';
export const bodyNotJsonMessage = 'The request body is not valid JSON.';

export function dailyLimitReachedMessage(limit: number): string {
  return `This email address has already received the cheat sheet ${limit} ${
    limit === 1 ? 'time' : 'times'
  } in the last 24 hours. Please check your inbox, or try again tomorrow.`;
}

// No 'domain' or 'verify' in the next four: the page keys its configuration alert on those words.

export function clientLimitReachedMessage(limit: number): string {
  return `Too many cheat sheets have been requested from your network in the last hour (at most ${limit}). Please try again later.`;
}

/** The daily send budget is spent: the service cannot send for now, and says so plainly. */
export const sendBudgetSpentMessage = "We can't send the cheat sheet right now. Please try again later.";

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

/** An example field error, as the request schema words it (a test holds the schema to it). */
export const invalidEmailExampleMessage = 'Please enter a valid email address.';

// The replies each route gives. To describe a new one, add a cause to its status below (or a new
// status): the OpenAPI document picks it up on the next `npm run openapi`.

/** One reason a route answers a status, with the message it then sends (the document's example). */
export interface FailureCause {
  /** A short name for the example, in camelCase. */
  readonly name: string;
  readonly when: string;
  readonly message: string;
}

/** A header a failure status always carries besides `Content-Type` and `Cache-Control`. */
export interface FixedReplyHeader {
  readonly description: string;
  readonly value: string;
}

export interface FailureStatus {
  readonly status: number;
  readonly description: string;
  readonly headers?: Readonly<Record<string, FixedReplyHeader>>;
  /** The routes that answer this status, each with its causes; a route not listed never does. */
  readonly causes: Readonly<Partial<Record<ApiRouteName, readonly FailureCause[]>>>;
}

export interface SuccessReply {
  readonly status: number;
  readonly description: string;
  readonly body: z.core.$ZodType;
  readonly example: unknown;
}

export const successReplies = {
  saveRequest: {
    status: 201,
    description:
      'The request was recorded, unsent. `id` names the stored item. A request whose honeypot field `website` is filled in gets the same reply, with a fresh id, and nothing is stored.',
    body: requestSavedBody,
    example: { id: '3f6c2a9e-8b1d-4c7a-9e0f-5d2b7a1c4e68' } satisfies RequestSavedBody,
  },
  sendCheatSheet: {
    status: 200,
    description:
      'The cheat sheet was e-mailed, with the PDF attached. A request whose honeypot field `website` is filled in gets the same reply, and nothing is sent or stored.',
    body: cheatSheetSentBody,
    example: { success: true, message: cheatSheetSentMessage } satisfies CheatSheetSentBody,
  },
} as const satisfies Record<ApiRouteName, SuccessReply>;

/** The failure body of each route. */
export const failureBodies = {
  saveRequest: saveFailureBody,
  sendCheatSheet: sendFailureBody,
} as const satisfies Record<ApiRouteName, z.core.$ZodType>;

/** Each route's failure body around a public message. */
export const failureBodyOf = {
  saveRequest: (error: string): SaveFailureBody => ({ error }),
  sendCheatSheet: (error: string): SendFailureBody => ({ success: false, error }),
} as const satisfies Record<ApiRouteName, (message: string) => unknown>;

const requestRefusals: readonly FailureCause[] = [
  {
    name: 'invalidField',
    when: 'A field is missing, of the wrong type or out of its limits (the message names the field and the problem).',
    message: invalidEmailExampleMessage,
  },
  { name: 'emptyBody', when: 'The body is empty.', message: emptyBodyMessage },
  { name: 'notJson', when: 'The body is not well-formed JSON.', message: bodyNotJsonMessage },
  { name: 'notUtf8', when: 'The body is not UTF-8 text.', message: bodyNotUtf8Message },
];

const bothRoutes = <T>(value: T) => ({ saveRequest: value, sendCheatSheet: value });

export const failureStatuses: readonly FailureStatus[] = [
  {
    status: 400,
    description: `The request is not a usable \`{name, email}\` (with, optionally, the honeypot \`website\`: text of at most ${maxWebsiteLength} characters). Nothing was stored or sent.`,
    causes: bothRoutes(requestRefusals),
  },
  {
    status: 403,
    description:
      'Behind CloudFront: the request did not come through the site (the API was called at its own address), so the address it comes from cannot be trusted. Nothing was stored or sent.',
    causes: {
      sendCheatSheet: [
        {
          name: 'untrustedOrigin',
          when: 'The request lacks the secret CloudFront adds to every request it forwards to the API.',
          message: untrustedOriginMessage,
        },
      ],
    },
  },
  {
    status: 405,
    description:
      "The route takes POST only. It answers every other method itself, so that none gets the site's not-found page.",
    headers: { Allow: { description: 'The only method the route takes.', value: 'POST' } },
    causes: bothRoutes([
      { name: 'otherMethod', when: 'Any method but POST.', message: methodNotAllowedMessage('GET') },
    ]),
  },
  {
    status: 413,
    description: `The body is larger than ${maxBodyBytes / 1024} KB (${maxBodyBytes} bytes). Nothing was stored or sent.`,
    causes: bothRoutes([{ name: 'bodyTooLarge', when: 'The body is too large.', message: bodyTooLargeMessage }]),
  },
  {
    status: 415,
    description:
      'The body is not declared as JSON: `Content-Type` must be `application/json`, optionally with `charset=utf-8`.',
    causes: bothRoutes([
      { name: 'notDeclaredJson', when: 'Another or no content type.', message: unsupportedMediaTypeMessage },
    ]),
  },
  {
    status: 429,
    description: `The address reached its daily cap of cheat sheets (the stack's \`dailySendCap\`, ${defaultDailyLimit} by default), or the client its hourly limit (\`clientHourlySendCap\`, ${defaultClientHourlyLimit} by default). Nothing was sent.`,
    causes: {
      sendCheatSheet: [
        {
          name: 'dailyLimitReached',
          when: 'The address received the cheat sheet as often as the cap allows in the last 24 hours.',
          message: dailyLimitReachedMessage(defaultDailyLimit),
        },
        {
          name: 'clientLimitReached',
          when: 'The client (one IPv4 address, or one IPv6 /64) was sent as many cheat sheets as its limit allows in the last hour, to whatever addresses.',
          message: clientLimitReachedMessage(defaultClientHourlyLimit),
        },
      ],
    },
  },
  {
    status: 500,
    description: 'A fault on our side that retrying will not fix.',
    causes: bothRoutes([
      { name: 'misconfigured', when: 'The function is missing its configuration.', message: misconfiguredMessage },
      { name: 'unexpected', when: 'Any other, unforeseen failure.', message: unexpectedFailureMessage },
    ]),
  },
  {
    status: 502,
    description: 'The e-mail service refused the message. Nothing was sent, and the send does not count.',
    causes: {
      sendCheatSheet: [
        {
          name: 'senderNotVerified',
          when: 'The sender (or, in the SES sandbox, the recipient) is not verified. Only this message says "domain" or "verify", which the page keys its configuration error on.',
          message: senderNotVerifiedMessage,
        },
        { name: 'emailRejected', when: 'Any other refusal.', message: emailRejectedMessage },
      ],
    },
  },
  {
    status: 503,
    description: 'A service we depend on is unavailable for now: worth retrying later.',
    causes: {
      saveRequest: [
        {
          name: 'storageUnavailable',
          when: 'The database failed or did not answer.',
          message: storageUnavailableMessage,
        },
      ],
      sendCheatSheet: [
        {
          name: 'emailServiceUnavailable',
          when: 'The e-mail service throttled, failed or did not answer.',
          message: emailServiceUnavailableMessage,
        },
        {
          name: 'storageUnavailable',
          when: 'The database failed or did not answer (so the daily cap cannot be checked).',
          message: storageUnavailableMessage,
        },
        {
          name: 'cheatSheetUnavailable',
          when: 'The PDF could not be read from its bucket.',
          message: cheatSheetUnavailableMessage,
        },
        {
          name: 'sendBudgetSpent',
          when: `The product sent its daily send budget (the stack's \`dailySendBudget\`, ${defaultDailySendBudget} by default) in the last 24 hours. A request saved first stays saved.`,
          message: sendBudgetSpentMessage,
        },
        {
          name: 'originSecretUnavailable',
          when: 'Behind CloudFront: the secret that proves a request came through it could not be read.',
          message: originSecretUnavailableMessage,
        },
      ],
    },
  },
];
