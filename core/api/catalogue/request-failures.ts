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
import { fixed, onJsonRoutes, ownMessage, type FailureKindSpec } from './failure-kind';

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
    runbook: '#api-4xx',
    causes: { submitForm: [{ example: 'crossSite', when: 'Sent from another site.', message: crossSiteFormMessage }] },
  },
  methodNotAllowed: {
    code: 'method_not_allowed',
    status: 405,
    publicMessage: ownMessage,
    metric: null,
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
    runbook: '#api-4xx',
    causes: { ...onJsonRoutes([bodyTooLarge]), submitForm: [bodyTooLarge] },
  },
  unsupportedMediaType: {
    code: 'unsupported_media_type',
    status: 415,
    publicMessage: ownMessage,
    metric: null,
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
