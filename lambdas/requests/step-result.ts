/**
 * What one step of a route (save, send) came to, for its caller to reply with: the JSON handlers
 * turn it into their body, the form handler into a result page. A failure is already logged and
 * counted, and carries the catalogue's status, public message and code.
 */

import type { FailureReply } from '../http/http-reply';

export type StepResult<Success> =
  | ({ readonly ok: true } & Success)
  | {
      readonly ok: false;
      readonly failure: FailureReply;
      /** SES may have accepted the e-mail (its answer was lost): the request's key keeps this reply. */
      readonly outcomeUnknown?: boolean;
    };
