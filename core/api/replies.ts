/**
 * What the two JSON routes answer: the shape of every reply body, and which statuses each route
 * gives and why. The functions reply with these (`lambdas/shared/http-reply.ts` looks their typed
 * errors up in the failure catalogue, `catalogue/failures.ts`) and `docs/openapi.yaml` is generated
 * from them (`infra/tools/openapi-document.ts`), so the description cannot drift from what is sent.
 */

// zod/mini, as the request schema: the same shapes give the types here and the JSON Schemas in the document.
import * as z from 'zod/mini';

import {
  defaultAddressDailyCap,
  defaultClientHourlySendCap,
  defaultClientHourlySaveCap,
  defaultDailySendBudget,
  defaultNetworkHourlySendCap,
  defaultNetworkHourlySaveCap,
} from '../config/function-environment';
import { failureKinds, type FailureCode, type FailureKindName } from './catalogue/failures';
import {
  addressDailyCapReachedMessage,
  bodyNotJsonMessage,
  bodyNotUtf8Message,
  bodyTooLargeMessage,
  cheatSheetSentMessage,
  cheatSheetUnavailableMessage,
  clientHourlySendCapReachedMessage,
  clientHourlySaveCapReachedMessage,
  dailySendBudgetSpentMessage,
  emailRejectedMessage,
  emailServiceUnavailableMessage,
  emptyBodyMessage,
  invalidEmailExampleMessage,
  methodNotAllowedMessage,
  misconfiguredMessage,
  networkHourlySendCapReachedMessage,
  networkHourlySaveCapReachedMessage,
  originSecretUnavailableMessage,
  senderNotVerifiedMessage,
  storageUnavailableMessage,
  undeliverableAddressMessage,
  unexpectedFailureMessage,
  unsupportedMediaTypeMessage,
  untrustedOriginMessage,
} from './messages';
import { maxBodyBytes, maxWebsiteLength } from './request-limits';
import type { apiRoutes } from './routes';

/** A route by its name in `apiRoutes`. */
export type ApiRouteName = keyof typeof apiRoutes;

// The replies each route gives. To describe a new one, add a cause to its status below (or a new
// status): the OpenAPI document picks it up on the next `npm run openapi`.

/** One reason a route answers a status, with the message it then sends (the document's example). */
export interface FailureCause {
  /** A short name for the example, in camelCase. */
  readonly name: string;
  /** The failure kind it is: its `code` goes into the body. */
  readonly kind: FailureKindName;
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

const requestRefusals: readonly FailureCause[] = [
  {
    name: 'invalidField',
    kind: 'invalidRequest',
    when: 'A field is missing, of the wrong type or out of its limits (the message names the field and the problem).',
    message: invalidEmailExampleMessage,
  },
  { name: 'emptyBody', kind: 'invalidRequest', when: 'The body is empty.', message: emptyBodyMessage },
  { name: 'notJson', kind: 'invalidRequest', when: 'The body is not well-formed JSON.', message: bodyNotJsonMessage },
  { name: 'notUtf8', kind: 'invalidRequest', when: 'The body is not UTF-8 text.', message: bodyNotUtf8Message },
];

const bothRoutes = <T>(value: T) => ({ saveRequest: value, sendCheatSheet: value });

export const failureStatuses: readonly FailureStatus[] = [
  {
    status: 400,
    description: `The request is not a usable \`{name, email}\` (with, optionally, the honeypot \`website\`: text of at most ${maxWebsiteLength} characters). Nothing was stored or sent.`,
    causes: {
      saveRequest: requestRefusals,
      sendCheatSheet: [
        ...requestRefusals,
        {
          name: 'undeliverableAddress',
          kind: 'undeliverableAddress',
          when: "The address's domain takes no mail (no such domain, a null MX, or neither MX nor address records): checked before any limit is counted.",
          message: undeliverableAddressMessage,
        },
      ],
    },
  },
  {
    status: 403,
    description:
      'Behind CloudFront: the request did not come through the site (the API was called at its own address), so the address it comes from cannot be trusted. Nothing was stored or sent.',
    causes: bothRoutes([
      {
        name: 'untrustedOrigin',
        kind: 'untrustedOrigin',
        when: 'The request lacks the secret CloudFront adds to every request it forwards to the API.',
        message: untrustedOriginMessage,
      },
    ]),
  },
  {
    status: 405,
    description:
      "The route takes POST only. It answers every other method itself, so that none gets the site's not-found page.",
    headers: { Allow: { description: 'The only method the route takes.', value: 'POST' } },
    causes: bothRoutes([
      {
        name: 'otherMethod',
        kind: 'methodNotAllowed',
        when: 'Any method but POST.',
        message: methodNotAllowedMessage('GET'),
      },
    ]),
  },
  {
    status: 413,
    description: `The body is larger than ${maxBodyBytes / 1024} KB (${maxBodyBytes} bytes). Nothing was stored or sent.`,
    causes: bothRoutes([
      { name: 'bodyTooLarge', kind: 'payloadTooLarge', when: 'The body is too large.', message: bodyTooLargeMessage },
    ]),
  },
  {
    status: 415,
    description:
      'The body is not declared as JSON: `Content-Type` must be `application/json`, optionally with `charset=utf-8`.',
    causes: bothRoutes([
      {
        name: 'notDeclaredJson',
        kind: 'unsupportedMediaType',
        when: 'Another or no content type.',
        message: unsupportedMediaTypeMessage,
      },
    ]),
  },
  {
    status: 429,
    description: `A limit was reached. Sends: the address's daily cap (the stack's \`dailySendCap\`, ${defaultAddressDailyCap} by default), the client's hourly limit (\`clientHourlySendCap\`, ${defaultClientHourlySendCap}) or the network's (\`networkHourlySendCap\`, ${defaultNetworkHourlySendCap}). Saves: the client's (\`clientHourlySaveCap\`, ${defaultClientHourlySaveCap}) or the network's (\`networkHourlySaveCap\`, ${defaultNetworkHourlySaveCap}) hourly limit. Nothing was stored or sent.`,
    causes: {
      saveRequest: [
        {
          name: 'clientHourlySaveCapReached',
          kind: 'clientHourlySaveCapReached',
          when: 'The client (one IPv4 address, or one IPv6 /64) saved as many requests as its limit allows in the last hour.',
          message: clientHourlySaveCapReachedMessage(defaultClientHourlySaveCap),
        },
        {
          name: 'networkHourlySaveCapReached',
          kind: 'networkHourlySaveCapReached',
          when: 'The network (one IPv4 /24, or one IPv6 /48) saved as many requests as its limit allows in the last hour.',
          message: networkHourlySaveCapReachedMessage(defaultNetworkHourlySaveCap),
        },
      ],
      sendCheatSheet: [
        {
          name: 'addressDailyCapReached',
          kind: 'addressDailyCapReached',
          when: 'The address received the cheat sheet as often as the cap allows in the last 24 hours.',
          message: addressDailyCapReachedMessage(defaultAddressDailyCap),
        },
        {
          name: 'clientHourlySendCapReached',
          kind: 'clientHourlySendCapReached',
          when: 'The client (one IPv4 address, or one IPv6 /64) was sent as many cheat sheets as its limit allows in the last hour, to whatever addresses.',
          message: clientHourlySendCapReachedMessage(defaultClientHourlySendCap),
        },
        {
          name: 'networkHourlySendCapReached',
          kind: 'networkHourlySendCapReached',
          when: 'The network (one IPv4 /24, or one IPv6 /48) was sent as many cheat sheets as its limit allows in the last hour, whatever its clients.',
          message: networkHourlySendCapReachedMessage(defaultNetworkHourlySendCap),
        },
      ],
    },
  },
  {
    status: 500,
    description: 'A fault on our side that retrying will not fix.',
    causes: bothRoutes([
      {
        name: 'misconfigured',
        kind: 'misconfigured',
        when: 'The function is missing its configuration.',
        message: misconfiguredMessage,
      },
      {
        name: 'unexpected',
        kind: 'unexpected',
        when: 'Any other, unforeseen failure.',
        message: unexpectedFailureMessage,
      },
    ]),
  },
  {
    status: 502,
    description: 'The e-mail service refused the message. Nothing was sent, and the send does not count.',
    causes: {
      sendCheatSheet: [
        {
          name: 'senderNotVerified',
          kind: 'senderNotVerified',
          when: 'The sender (or, in the SES sandbox, the recipient) is not verified. Only this message says "domain" or "verify", which the page keys its configuration error on.',
          message: senderNotVerifiedMessage,
        },
        { name: 'emailRejected', kind: 'emailRejected', when: 'Any other refusal.', message: emailRejectedMessage },
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
          kind: 'storageUnavailable',
          when: 'The database failed or did not answer.',
          message: storageUnavailableMessage,
        },
        {
          name: 'originSecretUnavailable',
          kind: 'originSecretUnavailable',
          when: 'Behind CloudFront: the secret that proves a request came through it could not be read.',
          message: originSecretUnavailableMessage,
        },
      ],
      sendCheatSheet: [
        {
          name: 'emailServiceUnavailable',
          kind: 'emailServiceUnavailable',
          when: 'The e-mail service throttled, failed or did not answer.',
          message: emailServiceUnavailableMessage,
        },
        {
          name: 'storageUnavailable',
          kind: 'storageUnavailable',
          when: 'The database failed or did not answer (so the daily cap cannot be checked).',
          message: storageUnavailableMessage,
        },
        {
          name: 'cheatSheetUnavailable',
          kind: 'cheatSheetUnavailable',
          when: 'The PDF could not be read from its bucket.',
          message: cheatSheetUnavailableMessage,
        },
        {
          name: 'dailySendBudgetSpent',
          kind: 'dailySendBudgetSpent',
          when: `The product sent its daily send budget (the stack's \`dailySendBudget\`, ${defaultDailySendBudget} by default) in the last 24 hours. A request saved first stays saved.`,
          message: dailySendBudgetSpentMessage,
        },
        {
          name: 'sendingPaused',
          kind: 'sendingPaused',
          when: "SES sending is paused, for the product's configuration set (after a bounce or complaint alarm) or for the whole account. Every slot claimed is given back.",
          message: dailySendBudgetSpentMessage,
        },
        {
          name: 'originSecretUnavailable',
          kind: 'originSecretUnavailable',
          when: 'Behind CloudFront: the secret that proves a request came through it could not be read.',
          message: originSecretUnavailableMessage,
        },
      ],
    },
  },
];

/** The codes a route's failure bodies can carry: its causes' kinds', in the order of its statuses. */
function failureCodesOf(route: ApiRouteName): [FailureCode, ...FailureCode[]] {
  const codes = new Set<FailureCode>();
  for (const status of failureStatuses) {
    for (const cause of status.causes[route] ?? []) codes.add(failureKinds[cause.kind].code);
  }
  const [first, ...rest] = codes;
  if (first === undefined) throw new Error(`${route} has no failure`);
  return [first, ...rest];
}

const errorText = z.string().check(z.minLength(1));

/** `201` from the save route: the id of the stored request. */
export const requestSavedBody = z.strictObject({ id: z.uuid() });
/** Every failure of the save route: `code` names the failure kind (`catalogue/failures.ts`). */
export const saveFailureBody = z.strictObject({ error: errorText, code: z.enum(failureCodesOf('saveRequest')) });
/** `200` from the send route. */
export const cheatSheetSentBody = z.strictObject({ success: z.literal(true), message: z.string() });
/** Every failure of the send route: the page reads `success` first, then `error`. */
export const sendFailureBody = z.strictObject({
  success: z.literal(false),
  error: errorText,
  code: z.enum(failureCodesOf('sendCheatSheet')),
});

export type RequestSavedBody = z.output<typeof requestSavedBody>;
export type SaveFailureBody = z.output<typeof saveFailureBody>;
export type CheatSheetSentBody = z.output<typeof cheatSheetSentBody>;
export type SendFailureBody = z.output<typeof sendFailureBody>;

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

/** A failure as a route sends it: its public message and its code. */
export interface FailureReplyText {
  readonly message: string;
  readonly code: FailureCode;
}

/** Each route's failure body around a public message and its code. */
export const failureBodyOf = {
  saveRequest: ({ message, code }: FailureReplyText) => ({ error: message, code }),
  sendCheatSheet: ({ message, code }: FailureReplyText) => ({ success: false, error: message, code }),
} as const satisfies Record<ApiRouteName, (failure: FailureReplyText) => unknown>;
