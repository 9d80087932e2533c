/**
 * The pages the form leads to when its script did not handle the submit (JavaScript off, or not
 * loaded yet): one per outcome (`core/site-pages.ts`), each in the words the page's own toasts,
 * alert and dialog use for the same outcome, with a way back. And the page the form route answers
 * a request it refuses with (a 4xx: a field out of its limits, say).
 */

import type { FormOutcome } from '../site-pages';
import { emailConfigAlert, errorDialog, toasts, type ToastCopy } from './messages';
import { notFound } from './site';

export interface PageLink {
  readonly label: string;
  readonly href: string;
}

/** Back to the form, on the landing page. */
export const backToForm: PageLink = { label: 'Back to the form', href: '/#download-section' };

export interface FormResult {
  /** The heading and the sentence under it: the toast the script would have shown. */
  readonly message: ToastCopy;
  /** The inline alert the script would have shown too. */
  readonly alert?: typeof emailConfigAlert;
  /** What the 'Error Details' dialog suggests, without its technical text. */
  readonly suggestions?: { readonly title: string; readonly intro: string; readonly items: readonly string[] };
  readonly link: PageLink;
}

const dialogSuggestions = { title: errorDialog.title, intro: errorDialog.intro, items: errorDialog.suggestions };

export const formResults: Readonly<Record<FormOutcome, FormResult>> = {
  sent: { message: toasts.sent, link: { label: notFound.homeLink, href: '/' } },
  notConfirmed: { message: toasts.verificationRequired, link: backToForm },
  emailConfigurationError: { message: toasts.domainError, alert: emailConfigAlert, link: backToForm },
  notSent: { message: toasts.processingError, suggestions: dialogSuggestions, link: backToForm },
};

/** The page of a refused form request (4xx); the reason, a fixed sentence of the API, goes under the title. */
export const formRefusalPage = {
  title: 'Your request could not be sent',
  link: backToForm,
} as const;
