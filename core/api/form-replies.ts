/**
 * What the form route (`cheatSheetFormRoute`) answers. A browser posts the form there when the
 * page's script did not handle the submit, so every reply is for a browser: `303` to a result page
 * (`core/site-pages.ts`) once the request was understood, whatever became of it, or a small HTML
 * page with a status and a fixed sentence when the request itself is refused. `docs/openapi.yaml`
 * describes the route from this module (`infra/tools/openapi-document.ts`).
 */

import { formResultPaths, type FormOutcome } from '../site-pages';
import {
  invalidEmailExampleMessage,
  bodyNotUtf8Message,
  bodyTooLargeMessage,
  methodNotAllowedMessage,
  untrustedOriginMessage,
} from './messages';
import { maxBodyBytes } from './request-limits';

/** The form's checkbox sends `hasBook=on` when ticked (a browser's value for a checkbox without one) and nothing otherwise. */
export const hasBookTicked = 'on';

export const formContentType = 'application/x-www-form-urlencoded';

export const formNotUrlencodedMessage =
  'Please send the form as a browser does (Content-Type: application/x-www-form-urlencoded).';

/**
 * A browser says where a form was sent from (`Sec-Fetch-Site`): another site's page posting to this
 * route would make its visitors request cheat sheets for addresses they never typed.
 */
export const crossSiteFormMessage = "The form can only be sent from this site's own page.";

/** One reason the route refuses a request, with its sentence (the document's example). */
export interface FormRefusal {
  readonly name: string;
  readonly when: string;
  readonly message: string;
}

export interface FormRefusalStatus {
  readonly status: 400 | 403 | 405 | 413 | 415;
  readonly description: string;
  readonly causes: readonly FormRefusal[];
}

export const formRefusalStatuses: readonly FormRefusalStatus[] = [
  {
    status: 400,
    description: 'A field is missing or out of its limits, or the body is not UTF-8. Nothing was stored or sent.',
    causes: [
      {
        name: 'invalidField',
        when: "A field is missing or out of its limits: the request schema's message.",
        message: invalidEmailExampleMessage,
      },
      { name: 'notUtf8', when: 'The body is not UTF-8 text.', message: bodyNotUtf8Message },
    ],
  },
  {
    status: 403,
    description:
      "The browser says another site's page sent the form (`Sec-Fetch-Site: cross-site` or `same-site`): nothing was stored or sent. Or, behind CloudFront, the request did not come through the site's distribution (no origin secret): the send step refuses it as the send route does, after the save step stored it as the save route would.",
    causes: [
      { name: 'crossSite', when: 'Sent from another site.', message: crossSiteFormMessage },
      {
        name: 'untrustedOrigin',
        when: "Sent past the site's CloudFront distribution.",
        message: untrustedOriginMessage,
      },
    ],
  },
  {
    status: 405,
    description:
      "The route takes POST only. It answers every other method itself, so that none gets the site's not-found page.",
    causes: [{ name: 'otherMethod', when: 'Any method but POST.', message: methodNotAllowedMessage('GET') }],
  },
  {
    status: 413,
    description: `The body is larger than ${maxBodyBytes / 1024} KB (${maxBodyBytes} bytes). Nothing was stored or sent.`,
    causes: [{ name: 'bodyTooLarge', when: 'The body is too large.', message: bodyTooLargeMessage }],
  },
  {
    status: 415,
    description: `The body is not declared as a form: \`Content-Type\` must be \`${formContentType}\`, optionally with \`charset=utf-8\`.`,
    causes: [{ name: 'notUrlencoded', when: 'Another or no content type.', message: formNotUrlencodedMessage }],
  },
];

/** Where each outcome of an understood request is sent, and why. */
export const formOutcomes: Readonly<Record<FormOutcome, { readonly path: string; readonly when: string }>> = {
  sent: {
    path: formResultPaths.sent,
    when: 'The cheat sheet was e-mailed (or the honeypot `website` was filled in: then nothing was stored or sent).',
  },
  notConfirmed: {
    path: formResultPaths.notConfirmed,
    when: 'The box was not ticked (no `hasBook=on`). Nothing was stored or sent.',
  },
  emailConfigurationError: {
    path: formResultPaths.emailConfigurationError,
    when: "The e-mail service refused the sender as not verified (the send route's error names the domain).",
  },
  notSent: {
    path: formResultPaths.notSent,
    when: 'Sending failed for any other reason: a limit (per address, per client, the daily send budget), the e-mail service or the storage failing. The request was stored, unsent, unless storing failed.',
  },
};
