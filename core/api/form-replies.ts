/**
 * What the form route (`cheatSheetFormRoute`) answers. A browser posts the form there when the
 * page's script did not handle the submit, so every reply is for a browser: `303` to a result page
 * (`core/site-pages.ts`) once the request was understood, whatever became of it, or a small HTML
 * page with a status and a fixed sentence when the request itself is refused. `docs/openapi.yaml`
 * describes the route from this module (`infra/tools/openapi-document.ts`).
 */

import { formResultPaths, type FormOutcome } from '../site-pages';
import { failureCausesOn, failureKinds } from './catalogue/failures';
import type { FailureCatalogue } from './catalogue/failure-kind';
import { productRoutes } from './catalogue/routes';
import { maxBodyBytes } from './request-limits';

/** The form's checkbox sends `hasBook=on` when ticked (a browser's value for a checkbox without one) and nothing otherwise. */
export const hasBookTicked = 'on';
/** The same for the mailing-list box (`mailingList=on`), offered only with a mail provider. */
export const mailingListTicked = 'on';

export const formContentType = 'application/x-www-form-urlencoded';

/** One reason the route refuses a request, with its sentence (the document's example). */
export interface FormRefusal {
  readonly name: string;
  /** The failure kind it is (`catalogue/failures.ts`). */
  readonly kind: string;
  readonly when: string;
  readonly message: string;
}

export interface FormRefusalStatus {
  readonly status: number;
  readonly description: string;
  readonly causes: readonly FormRefusal[];
}

/**
 * What each refusal status means on the form route; its causes are the catalogue's. A status
 * without a description here is described by its causes.
 */
export const formStatusDescriptions: Readonly<Partial<Record<number, string>>> = {
  400: 'A field is missing or out of its limits, or the body is not UTF-8. Nothing was stored or sent.',
  403: "The browser says another site's page sent the form (`Sec-Fetch-Site: cross-site` or `same-site`): nothing was stored or sent. Or, behind CloudFront, the request did not come through the site's distribution (no origin secret): the send step refuses it as the send route does, after the save step stored it as the save route would.",
  405: `The route takes ${productRoutes.submitForm.method} only (the \`Allow\` header names it). It answers every other method itself, so that none gets the site's not-found page.`,
  413: `The body is larger than ${maxBodyBytes / 1024} KB (${maxBodyBytes} bytes). Nothing was stored or sent.`,
  415: `The body is not declared as a form: \`Content-Type\` must be \`${formContentType}\`, optionally with \`charset=utf-8\`.`,
};

/**
 * The statuses the form route refuses a request with, each with its causes: the catalogue's
 * causes on `submitForm`, by status. `catalogue` is the real one unless a test passes a copy.
 */
export function formRefusalStatusesOf(catalogue: FailureCatalogue = failureKinds): FormRefusalStatus[] {
  const causes = failureCausesOn(productRoutes.submitForm, catalogue);
  const statuses = [...new Set(causes.map((cause) => cause.status))].sort((a, b) => a - b);
  return statuses.map((status) => {
    const ofStatus = causes.filter((cause) => cause.status === status);
    return {
      status,
      description: formStatusDescriptions[status] ?? ofStatus.map((cause) => cause.when).join(' '),
      causes: ofStatus.map((cause) => ({
        name: cause.example,
        kind: cause.kind,
        when: cause.when,
        message: cause.message,
      })),
    };
  });
}

export const formRefusalStatuses: readonly FormRefusalStatus[] = formRefusalStatusesOf();

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
