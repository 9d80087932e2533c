/**
 * The page's only two calls, as the contract defines them. Everything about HTTP stays here:
 * the form's hook sees typed outcomes, never a Response.
 */

import { apiRoutes } from '../../../core/api/routes';
import { proofOfWorkHeader } from '../../../core/api/proof-of-work';

export interface CheatSheetRequest {
  readonly name: string;
  readonly email: string;
  /** The honeypot field: empty unless a script filled the form in. */
  readonly website?: string;
  /** The mailing-list box (only with a mail provider): true when the reader ticked it. */
  readonly mailingList?: boolean;
}

/**
 * What both calls send: the contract's fields, the honeypot (always present), and the ticked
 * confirmation, which the saved request records as the reader's consent (the form submits only
 * when it is ticked), and the mailing-list box only when the reader ticked it.
 */
const bodyOf = ({ name, email, website = '', mailingList }: CheatSheetRequest) => ({
  name,
  email,
  website,
  hasBook: true,
  ...(mailingList === true && { mailingList }),
});

/**
 * One submission's key (the IETF draft's `Idempotency-Key`): the same on both calls and on every
 * "Try Again" of that submission, so a retry after a lost reply stores and sends nothing twice.
 */
export type SubmissionKey = string;

/** A fresh key for a new submission. */
export const newSubmissionKey = (): SubmissionKey => crypto.randomUUID();

export const saveRequestPath = apiRoutes.saveRequest;
export const sendCheatSheetPath = apiRoutes.sendCheatSheet;

/** What the send function's reply means for the page. */
export type SendOutcome =
  /** The function answered `success: true`. */
  | { readonly kind: 'sent' }
  /**
   * The function answered `success` not true (its `error` or `message` as `message`), or a
   * success status with no data to read.
   */
  | { readonly kind: 'rejected'; readonly message?: string }
  /** An error status without the function's JSON (a gateway error page, say). */
  | { readonly kind: 'function-error'; readonly message: string };

function postJson(
  path: string,
  body: unknown,
  key: SubmissionKey,
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'Idempotency-Key': key,
      ...extraHeaders,
    },
    body: JSON.stringify(body),
  });
}

async function readJson(response: Response): Promise<Record<string, unknown> | undefined> {
  const body: unknown = await response.json().catch(() => undefined);
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
}

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * Step 1: record the request. A failure is logged and yields false; the caller goes on
 * regardless, because the e-mail matters more to the visitor than the record.
 */
export async function saveCheatSheetRequest(request: CheatSheetRequest, key: SubmissionKey): Promise<boolean> {
  try {
    // The function itself stores cheat_sheet_sent: false; the body is name, email and the honeypot.
    const response = await postJson(saveRequestPath, bodyOf(request), key);
    if (response.ok) return true;
    const body = await readJson(response);
    console.error('Saving the cheat-sheet request failed:', response.status, textOf(body?.error) ?? '');
  } catch (error) {
    console.error('Saving the cheat-sheet request failed:', error);
  }
  return false;
}

/**
 * Step 2: ask the send function to e-mail the cheat sheet, with the solved proof of work when the
 * send needs one (`proof`: the `X-Cheat-Sheet-Proof` header's value). Throws only when the network fails.
 */
export async function sendCheatSheet(
  request: CheatSheetRequest,
  key: SubmissionKey,
  proof?: string,
): Promise<SendOutcome> {
  const response = await postJson(
    sendCheatSheetPath,
    bodyOf(request),
    key,
    proof === undefined ? {} : { [proofOfWorkHeader]: proof },
  );
  const body = await readJson(response);
  if (body === undefined || !('success' in body)) {
    if (response.ok) return { kind: 'rejected' };
    return { kind: 'function-error', message: `HTTP ${response.status} ${response.statusText}`.trim() };
  }
  if (body.success === true) return { kind: 'sent' };
  return { kind: 'rejected', message: textOf(body.error) ?? textOf(body.message) };
}
