/**
 * The form's two steps when the page's script did not take them, in the spec's order and with
 * its rules: the box must be ticked (else nothing is saved or sent), the request is saved (a
 * failure is logged and the flow goes on regardless), then the cheat sheet is sent by the same
 * domain function, with the same limits, as `POST /api/send-cheat-sheet`. A filled honeypot is
 * answered as a success and nothing is saved or sent. Knows nothing of HTTP: a failed send
 * throws its typed error for the handler to map.
 */

import type { Logger } from '@aws-lambda-powertools/logger';
import { describeErrorForLog } from '../shared/logger';
import type { CheatSheetRequest } from '../../core/api/request-schema';
import type { CheatSheetForm } from './form-request';

export interface SubmitFormDependencies {
  /** `saveRequest` with its dependencies. */
  readonly save: (request: CheatSheetRequest) => Promise<{ readonly id: string }>;
  /** `sendCheatSheet` with its dependencies. */
  readonly send: (request: CheatSheetRequest) => Promise<unknown>;
  readonly logger: Pick<Logger, 'info' | 'warn'>;
}

/** How a form the function understood ended, when it did not throw. */
export type SubmittedForm = 'sent' | 'notConfirmed' | 'honeypotFilled';

export async function submitForm(form: CheatSheetForm, deps: SubmitFormDependencies): Promise<SubmittedForm> {
  if (!form.hasBook) return 'notConfirmed';
  if (form.website !== '') return 'honeypotFilled';

  try {
    await deps.save(form.request);
  } catch (error) {
    deps.logger.warn('Cheat-sheet request not saved; sending it anyway', describeErrorForLog(error));
  }
  await deps.send(form.request);
  return 'sent';
}
