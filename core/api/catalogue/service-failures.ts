/**
 * The failure kinds on our side (5xx): a service we depend on refused or failed, the function's
 * configuration, a bug. None has an alarm of its own: each counts under its failure metric (the
 * dashboard's failures by kind) and burns the availability objective, whose burn-rate alarms page
 * (infra/constructs/monitoring/). Part of the failure catalogue (`failures.ts`).
 */

import {
  cheatSheetUnavailableMessage,
  emailRejectedMessage,
  emailServiceUnavailableMessage,
  misconfiguredMessage,
  originSecretUnavailableMessage,
  senderNotVerifiedMessage,
  storageUnavailableMessage,
  unexpectedFailureMessage,
} from '../messages';
import { fixed, onJsonRoutes, type FailureKindSpec } from './failure-kind';

export const serviceFailures = {
  // A misconfigured sender is our fault, reported by the upstream service: 502.
  senderNotVerified: {
    code: 'sender_not_verified',
    status: 502,
    publicMessage: fixed(senderNotVerifiedMessage),
    metric: { failure: 'SenderNotVerified' },
    // Also the SES sandbox: SES then checks the recipient's identity too, and every reader fails.
    runbook: '#sender-not-verified',
    causes: {
      sendCheatSheet: [
        {
          when: 'The sender (or, in the SES sandbox, the recipient) is not verified. Only this message says "domain" or "verify", which the page keys its configuration error on.',
        },
      ],
    },
  },
  emailRejected: {
    code: 'email_rejected',
    status: 502,
    publicMessage: fixed(emailRejectedMessage),
    metric: { failure: 'SesRejected' },
    runbook: '#ses-rejected',
    causes: { sendCheatSheet: [{ when: 'Any other refusal.' }] },
  },
  // Temporary: unreachable services, a PDF not (yet) in its bucket.
  emailServiceUnavailable: {
    code: 'email_service_unavailable',
    status: 503,
    publicMessage: fixed(emailServiceUnavailableMessage),
    metric: { failure: 'SesUnavailable' },
    runbook: '#ses-unavailable',
    causes: {
      sendCheatSheet: [
        {
          when: 'The e-mail service failed or did not answer (a throttled send is queued and answered as sent), or the send queue took nothing.',
        },
      ],
    },
  },
  storageUnavailable: {
    code: 'storage_unavailable',
    status: 503,
    publicMessage: fixed(storageUnavailableMessage),
    metric: { failure: 'StorageUnavailable' },
    runbook: '#storage-unavailable',
    causes: {
      saveRequest: [{ when: 'The database failed or did not answer.' }],
      sendCheatSheet: [{ when: 'The database failed or did not answer (so the daily cap cannot be checked).' }],
    },
  },
  cheatSheetUnavailable: {
    code: 'cheat_sheet_unavailable',
    status: 503,
    publicMessage: fixed(cheatSheetUnavailableMessage),
    metric: { failure: 'PdfUnavailable' },
    runbook: '#pdf-unavailable',
    causes: { sendCheatSheet: [{ when: 'The PDF could not be read from its bucket.' }] },
  },
  // Read once per container, so a failure is nearly always a wrong ARN or a missing grant.
  originSecretUnavailable: {
    code: 'origin_secret_unavailable',
    status: 503,
    publicMessage: fixed(originSecretUnavailableMessage),
    metric: { failure: 'Misconfigured' },
    runbook: '#misconfigured',
    causes: {
      ...onJsonRoutes([
        { when: 'Behind CloudFront: the secret that proves a request came through it could not be read.' },
      ]),
      cheatSheetChallenge: [
        { when: "The secret the challenges are signed with (the origin secret's) could not be read." },
      ],
    },
  },
  misconfigured: {
    code: 'misconfigured',
    status: 500,
    publicMessage: fixed(misconfiguredMessage),
    metric: { failure: 'Misconfigured' },
    runbook: '#misconfigured',
    causes: {
      ...onJsonRoutes([{ when: 'The function is missing its configuration.' }]),
      cheatSheetChallenge: [{ when: 'The function is missing its configuration.' }],
    },
  },
  unexpected: {
    code: 'unexpected',
    status: 500,
    publicMessage: fixed(unexpectedFailureMessage),
    metric: { failure: 'Unexpected' },
    runbook: '#unexpected',
    causes: {
      ...onJsonRoutes([{ when: 'Any other, unforeseen failure.' }]),
      cheatSheetChallenge: [{ when: 'Any other, unforeseen failure.' }],
    },
  },
} as const satisfies Record<string, FailureKindSpec>;
