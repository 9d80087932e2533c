/**
 * The page's only two calls, as the contract defines them. Everything about HTTP stays here:
 * the form's hook sees typed outcomes, never a Response.
 */

import { apiRoutes } from '../../../core/api/routes';

export interface CheatSheetRequest {
  readonly name: string;
  readonly email: string;
  /** The honeypot field: empty unless a script filled the form in. */
  readonly website?: string;
}

/** What both calls send: the contract's fields and the honeypot, always present. */
const bodyOf = ({ name, email, website = '' }: CheatSheetRequest) => ({ name, email, website });

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

function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
}

async function readJson(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await response.json();
    return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * Step 1: record the request. A failure is logged and yields false; the caller goes on
 * regardless, because the e-mail matters more to the visitor than the record.
 */
export async function saveCheatSheetRequest(request: CheatSheetRequest): Promise<boolean> {
  try {
    // The function itself stores cheat_sheet_sent: false; the body is name, email and the honeypot.
    const response = await postJson(saveRequestPath, bodyOf(request));
    if (response.ok) return true;
    const body = await readJson(response);
    console.error('Saving the cheat-sheet request failed:', response.status, textOf(body?.error) ?? '');
    return false;
  } catch (error) {
    console.error('Saving the cheat-sheet request failed:', error);
    return false;
  }
}

/** Step 2: ask the send function to e-mail the cheat sheet. Throws only when the network fails. */
export async function sendCheatSheet(request: CheatSheetRequest): Promise<SendOutcome> {
  const response = await postJson(sendCheatSheetPath, bodyOf(request));
  const body = await readJson(response);
  if (body === undefined || !('success' in body)) {
    if (response.ok) return { kind: 'rejected' };
    return { kind: 'function-error', message: `HTTP ${response.status} ${response.statusText}`.trim() };
  }
  if (body.success === true) return { kind: 'sent' };
  return { kind: 'rejected', message: textOf(body.error) ?? textOf(body.message) };
}
