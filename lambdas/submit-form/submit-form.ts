/**
 * The form's two steps when the page's script did not take them, in the spec's order and with
 * its rules: the box must be ticked (else nothing is saved or sent); the request is saved (a
 * failure is logged by the save step and the flow goes on regardless, as on the page); then the
 * cheat sheet is sent. Each step is the JSON route's own (save-step.ts, send-step.ts), so the
 * validation, limits, honeypot, origin check and metrics are theirs; this maps their typed results
 * to where the browser goes. Knows nothing of AWS.
 */

import type { CheatSheetRequest } from '../../core/api/request-schema';
import type { FailureReply } from '../http/http-reply';
import type { FormOutcome } from '../../core/site-pages';

/** What a step came to: done, or its failure as the catalogue describes it. */
export type StepOutcome = { readonly ok: true } | { readonly ok: false; readonly failure: FailureReply };

export interface SubmitFormSteps {
  /** The save route's step on this request. */
  readonly save: (request: CheatSheetRequest) => Promise<StepOutcome>;
  /** The send route's step on this request. */
  readonly send: (request: CheatSheetRequest) => Promise<StepOutcome>;
}

/** Where the browser goes (a result page), or the refusal to show it (a 4xx page). */
export type SubmittedForm =
  | { readonly outcome: FormOutcome }
  | { readonly refusal: { readonly statusCode: number; readonly message: string } };

/**
 * A 4xx the visitor's request itself caused (a request that skipped CloudFront): said as it is,
 * on a page. The limits' 429 is an outcome like a failed send.
 */
function isRequestRefused(failure: FailureReply): boolean {
  return failure.statusCode >= 400 && failure.statusCode < 500 && failure.statusCode !== 429;
}

export async function submitForm(
  form: { readonly request: CheatSheetRequest; readonly hasBook: boolean },
  steps: SubmitFormSteps,
): Promise<SubmittedForm> {
  if (!form.hasBook) return { outcome: 'notConfirmed' };

  const saved = await steps.save(form.request);
  if (!saved.ok && isRequestRefused(saved.failure)) {
    return { refusal: { statusCode: saved.failure.statusCode, message: saved.failure.message } };
  }

  const sent = await steps.send(form.request);
  if (sent.ok) return { outcome: 'sent' };
  if (isRequestRefused(sent.failure)) {
    return { refusal: { statusCode: sent.failure.statusCode, message: sent.failure.message } };
  }
  // The page's configuration alert, by the failure's code rather than its words.
  return { outcome: sent.failure.code === 'sender_not_verified' ? 'emailConfigurationError' : 'notSent' };
}
