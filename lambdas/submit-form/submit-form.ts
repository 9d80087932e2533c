/**
 * The form's two steps when the page's script did not take them, in the spec's order and with
 * its rules: the box must be ticked (else nothing is saved or sent); the request is saved (a
 * failure is logged by the save step and the flow goes on regardless, as on the page); then the
 * cheat sheet is sent. Each step is a JSON route's own handler, so validation, limits, honeypot,
 * the origin check and metrics are theirs; this only reads their replies as the page does and
 * says where the browser goes. Knows nothing of AWS.
 */

import type { CheatSheetRequest } from '../../core/api/request-schema';
import { isDomainVerificationMessage } from '../../core/content/messages';
import type { FormOutcome } from '../../core/site-pages';

/** What a JSON route answered: its status and, when it failed, its `error`. */
export interface StepReply {
  readonly statusCode: number;
  readonly error?: string;
}

export interface SubmitFormSteps {
  /** POST /api/cheat-sheet-requests with this body. */
  readonly save: (request: CheatSheetRequest) => Promise<StepReply>;
  /** POST /api/send-cheat-sheet with this body. */
  readonly send: (request: CheatSheetRequest) => Promise<StepReply>;
}

/** Where the browser goes (a result page), or the refusal to show it (a 4xx page). */
export type SubmittedForm =
  { readonly outcome: FormOutcome } | { readonly refusal: { readonly statusCode: number; readonly message: string } };

/**
 * A 4xx the visitor's request itself caused (a field out of its limits, a request that skipped
 * CloudFront): said as it is, on a page. The limits' 429 is an outcome like a failed send.
 */
function isRequestRefused(reply: StepReply): boolean {
  return reply.statusCode >= 400 && reply.statusCode < 500 && reply.statusCode !== 429;
}

export async function submitForm(
  form: { readonly request: CheatSheetRequest; readonly hasBook: boolean },
  steps: SubmitFormSteps,
): Promise<SubmittedForm> {
  if (!form.hasBook) return { outcome: 'notConfirmed' };

  const saved = await steps.save(form.request);
  if (isRequestRefused(saved)) return { refusal: { statusCode: saved.statusCode, message: saved.error ?? '' } };

  const sent = await steps.send(form.request);
  if (sent.statusCode >= 200 && sent.statusCode < 300) return { outcome: 'sent' };
  if (isRequestRefused(sent)) return { refusal: { statusCode: sent.statusCode, message: sent.error ?? '' } };
  // The page's own rule, applied to the message the send route answered.
  return { outcome: isDomainVerificationMessage(sent.error ?? '') ? 'emailConfigurationError' : 'notSent' };
}
