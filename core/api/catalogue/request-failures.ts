/**
 * The failure kinds of a request refused for what it is (4xx, never the limits'): malformed, too
 * large, of the wrong type, method or origin. Part of the failure catalogue (`failures.ts`).
 */

import {
  anotherMethodThan,
  bodyNotJsonMessage,
  bodyNotUtf8Message,
  bodyTooLargeMessage,
  crossSiteFormMessage,
  emptyBodyMessage,
  formNotUrlencodedMessage,
  idempotencyKeyInUseMessage,
  idempotencyKeyReusedMessage,
  invalidEmailExampleMessage,
  invalidIdempotencyKeyMessage,
  methodNotAllowedMessage,
  recipientRejectedMessage,
  undeliverableAddressMessage,
  addressSuppressedMessage,
  unsupportedMediaTypeMessage,
  untrustedOriginMessage,
  proofOfWorkMessages,
} from '../messages';
import { fixed, onJsonRoutes, ownMessage, visitorsOwn, type FailureKindSpec } from './failure-kind';

/**
 * Direct calls (no origin secret) in five minutes that page: 150 is half a request a second, a
 * quarter of the smallest route throttle (2 a second, the form route's in routes.ts), the share the
 * web ACL lets one client of the site take. A test pins the two together.
 */
export const directCallsAlarmThreshold = 150;

const malformedJson = [
  {
    example: 'invalidField',
    when: 'A field is missing, of the wrong type or out of its limits (the message names the field and the problem).',
    message: invalidEmailExampleMessage,
  },
  { example: 'emptyBody', when: 'The body is empty.', message: emptyBodyMessage },
  { example: 'notJson', when: 'The body is not well-formed JSON.', message: bodyNotJsonMessage },
  { example: 'notUtf8', when: 'The body is not UTF-8 text.', message: bodyNotUtf8Message },
  {
    example: 'invalidIdempotencyKey',
    when: 'The `Idempotency-Key` header is empty, longer than 255 characters or not visible ASCII.',
    message: invalidIdempotencyKeyMessage,
  },
];

const bodyTooLarge = { example: 'bodyTooLarge', when: 'The body is too large.', message: bodyTooLargeMessage };

export const requestFailures = {
  invalidRequest: {
    code: 'invalid_request',
    status: 400,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason: visitorsOwn,
    runbook: '#api-4xx',
    causes: {
      ...onJsonRoutes(malformedJson),
      submitForm: [
        {
          example: 'invalidField',
          when: "A field is missing or out of its limits: the request schema's message.",
          message: invalidEmailExampleMessage,
        },
        { example: 'notUtf8', when: 'The body is not UTF-8 text.', message: bodyNotUtf8Message },
      ],
    },
  },
  // The IETF draft's answers to a repeated Idempotency-Key (lambdas/requests/idempotency.ts): the
  // first try's work is not done again.
  idempotencyKeyInUse: {
    code: 'idempotency_key_in_use',
    status: 409,
    publicMessage: fixed(idempotencyKeyInUseMessage),
    metric: null,
    alarm: null,
    quietReason:
      'A client repeating a request before its first try answered (a double click, a retry on a slow network): nothing is done twice, and API Gateway counts it as a 4xx.',
    runbook: '#idempotency-keys',
    causes: onJsonRoutes([
      {
        when: 'An earlier request with the same `Idempotency-Key` is still being answered (the IETF draft *The Idempotency-Key HTTP Header Field*). Nothing was done for this one: try again once the first has answered, with the same key, to get its reply.',
      },
    ]),
  },
  idempotencyKeyReused: {
    code: 'idempotency_key_reused',
    status: 422,
    publicMessage: fixed(idempotencyKeyReusedMessage),
    metric: null,
    alarm: null,
    quietReason: "A client's own mistake (one key, two bodies): API Gateway counts it as a 4xx.",
    runbook: '#idempotency-keys',
    causes: onJsonRoutes([
      {
        when: 'The `Idempotency-Key` was first used, within the last 24 hours, with another name, email or honeypot value. Nothing was stored or sent: a new submission needs a new key.',
      },
    ]),
  },
  // Never 404: CloudFront would replace the JSON with the not-found page.
  // The proof of work before a send (lambdas/limits/proof-of-work.ts), when CHEAT_SHEET_CHALLENGE
  // is on: the JSON send route only; the form route without script keeps its caps alone.
  proofOfWorkRefused: {
    code: 'proof_of_work_refused',
    status: 403,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason:
      "A request without the page's solved challenge: a script posting to the route, or a page left open past the challenge's 10 minutes. Nothing was stored, sent or counted; API Gateway counts it as a 4xx.",
    runbook: '#api-4xx',
    causes: {
      sendCheatSheet: [
        {
          example: 'proofOfWorkMissing',
          when: 'No `X-Cheat-Sheet-Proof` header: the challenge (`GET /api/cheat-sheet-challenge`) was not solved.',
          message: proofOfWorkMessages.missing,
        },
        {
          example: 'proofOfWorkMalformed',
          when: "The header is not base64 of ALTCHA's JSON payload (the challenge and its solution).",
          message: proofOfWorkMessages.malformed,
        },
        {
          example: 'proofOfWorkInvalid',
          when: "The challenge is not this deployment's (its signature), was changed, or the solution's key is wrong.",
          message: proofOfWorkMessages.invalid,
        },
        {
          example: 'proofOfWorkExpired',
          when: 'The challenge is older than its 10 minutes.',
          message: proofOfWorkMessages.expired,
        },
        {
          example: 'proofOfWorkReplayed',
          when: 'The solution was already used for a send: each challenge buys one.',
          message: proofOfWorkMessages.replayed,
        },
      ],
    },
  },
  untrustedOrigin: {
    code: 'untrusted_origin',
    status: 403,
    publicMessage: fixed(untrustedOriginMessage),
    metric: { refusal: 'UntrustedOrigin' },
    // API Gateway throttles a direct call before the function refuses it (docs/abuse.md): past
    // this many, direct calls take readers' throttle, which no visitor's mistake does.
    alarm: {
      threshold: directCallsAlarmThreshold,
      reason: `Calls to the API's own address, past CloudFront, spend the throttle readers share before the function refuses them: ${directCallsAlarmThreshold} in 5 minutes (half a request a second) is the quarter of the smallest route throttle that the web ACL lets one client of the site take.`,
    },
    runbook: '#direct-calls',
    causes: {
      ...onJsonRoutes([
        { when: 'The request lacks the secret CloudFront adds to every request it forwards to the API.' },
      ]),
      submitForm: [{ when: "Sent past the site's CloudFront distribution." }],
    },
  },
  crossSiteRequest: {
    code: 'cross_site_request',
    status: 403,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason: visitorsOwn,
    runbook: '#api-4xx',
    causes: { submitForm: [{ example: 'crossSite', when: 'Sent from another site.', message: crossSiteFormMessage }] },
  },
  methodNotAllowed: {
    code: 'method_not_allowed',
    status: 405,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason: visitorsOwn,
    runbook: '#api-4xx',
    // Every route: each takes its entry's method, and answers the others 405.
    causes: {},
    onEveryRoute: ({ method }: { readonly method: string }) => ({
      example: 'otherMethod',
      when: `Any method but ${method}.`,
      message: methodNotAllowedMessage(anotherMethodThan(method), method),
    }),
  },
  payloadTooLarge: {
    code: 'payload_too_large',
    status: 413,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason: visitorsOwn,
    runbook: '#api-4xx',
    causes: { ...onJsonRoutes([bodyTooLarge]), submitForm: [bodyTooLarge] },
  },
  unsupportedMediaType: {
    code: 'unsupported_media_type',
    status: 415,
    publicMessage: ownMessage,
    metric: null,
    alarm: null,
    quietReason: visitorsOwn,
    runbook: '#api-4xx',
    causes: {
      ...onJsonRoutes([
        { example: 'notDeclaredJson', when: 'Another or no content type.', message: unsupportedMediaTypeMessage },
      ]),
      submitForm: [
        { example: 'notUrlencoded', when: 'Another or no content type.', message: formNotUrlencodedMessage },
      ],
    },
  },
  // Before any limit is claimed: most often a typo, so the visitor is asked to check the address.
  undeliverableAddress: {
    code: 'undeliverable_address',
    status: 400,
    publicMessage: fixed(undeliverableAddressMessage),
    metric: null,
    alarm: null,
    quietReason:
      "A mistyped or made-up address, refused before it could bounce: the visitor's own request, counted as a 4xx.",
    runbook: '#recipient-domain-check',
    causes: {
      sendCheatSheet: [
        {
          when: "The address's domain takes no mail (no such domain, a null MX, or neither MX nor address records): checked before any limit is counted.",
        },
      ],
    },
  },
  // A mailbox that bounced for good or complained (the SES events function suppressed it):
  // refused before anything is stored, claimed or sent, so it can never bounce or complain again.
  addressSuppressed: {
    code: 'address_suppressed',
    status: 400,
    publicMessage: fixed(addressSuppressedMessage),
    metric: null,
    alarm: null,
    quietReason:
      'The suppression working as meant: the mailbox bounced for good or complained before, and SES already counted that. Counted as a 4xx only.',
    runbook: '#address-suppressed',
    causes: onJsonRoutes([
      {
        when: 'An earlier e-mail to this mailbox (any `+tag` or Gmail-dot spelling of it) bounced for good or was reported as spam: nothing is stored, counted or sent.',
      },
    ]),
  },
  // SES names the recipient as the reason: the visitor's own address, never the sender's fault.
  recipientRejected: {
    code: 'recipient_rejected',
    status: 400,
    publicMessage: fixed(recipientRejectedMessage),
    metric: { refusal: 'RecipientRejected' },
    alarm: null,
    quietReason:
      "SES refused the visitor's own address (not a valid address to SES, or on a suppression list): the visitor's 400, graphed on the dashboard, never paged.",
    runbook: '#recipient-rejected',
    causes: {
      sendCheatSheet: [
        {
          when: 'SES refused the address itself (not a valid address to SES, or on a suppression list). Nothing was sent.',
        },
      ],
    },
  },
} as const satisfies Record<string, FailureKindSpec>;
