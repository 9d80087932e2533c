/**
 * `npm run leads -- unsent` and `resend`: the requests still unsent 15 minutes after they were
 * saved (core/data/delivery-status.ts), and sending each again through the send step's own code
 * (lambdas/requests/send-cheat-sheet.ts): the same suppression, recipient-domain check, limits and
 * pause, and the same claim, so one request gets one e-mail however often `resend` runs. Each
 * request is claimed (`requested` or `failed` to `sending`, with a fresh token) before SES is
 * called: a second run, or a reader's own send, finds it claimed or sent and sends nothing.
 *
 * A request `sending` for more than 15 minutes is listed but never resent: its send may have
 * reached SES (a function that timed out after the call), and only `requested` and `failed` are
 * provably unsent. Nor is `unknown`, for the same reason.
 *
 * The resend counts as one client of its own (`operator-resend`) under the client and network
 * hourly limits, so it cannot send faster than those allow; the address's daily cap and the
 * daily send budget hold as for any reader.
 */

import { Logger } from '@aws-lambda-powertools/logger';
import { claimableStatuses, deliveryStatusOf, isUnsent } from '../../core/data/delivery-status';
import type { CheatSheetRequestItem } from '../../core/data/tables';
import { readSendCheatSheetConfig } from '../../lambdas/runtime/config';
import { failureKinds } from '../../core/api/catalogue/failures';
import { failureKindOf } from '../../lambdas/runtime/errors';
import { RequestNotClaimableError, sendCheatSheet } from '../../lambdas/requests/send-cheat-sheet';
import { sendCheatSheetDependencies } from '../../lambdas/requests/send-step';

/** The unsent requests, oldest first. */
export function unsentOf(items: readonly CheatSheetRequestItem[], now: Date): CheatSheetRequestItem[] {
  return items
    .filter((item) => isUnsent(item, now))
    .sort((a, b) => a.requested_at.localeCompare(b.requested_at) || a.id.localeCompare(b.id));
}

/** Whether `resend` may send it: provably unsent (`requested` or `failed`). */
export function isResendable(item: CheatSheetRequestItem): boolean {
  return claimableStatuses.includes(deliveryStatusOf(item));
}

/** One line per request: when, its state (and failure code), the address, the id. */
export function describeUnsent(item: CheatSheetRequestItem): string {
  const status = deliveryStatusOf(item);
  const code = item.failure_code ? ` (${item.failure_code})` : '';
  const note = isResendable(item) ? '' : '  [not resent: its send may have reached SES]';
  return `  ${item.requested_at}  ${status}${code}  ${item.email}  (id ${item.id})${note}`;
}

export type ResendOutcome =
  | { readonly id: string; readonly outcome: 'sent' }
  | { readonly id: string; readonly outcome: 'already-claimed' }
  | { readonly id: string; readonly outcome: 'refused'; readonly code: string };

/** The key the resend's client and network limits count under: not any reader's. */
export const resendClientKey = 'operator-resend';

/**
 * The send function's configuration from `env` (the same variables), with the client's address
 * fixed: a resend has no visitor, and counts as one client of its own.
 */
export function resendConfig(env: NodeJS.ProcessEnv) {
  return readSendCheatSheetConfig({ ...env, CLIENT_ADDRESS_SOURCE: 'source-ip', CLIENT_ADDRESS_KEY: resendClientKey });
}

/** Sends each request again, one at a time; a refusal (a cap, the pause) is reported and the rest go on. */
export async function resendRequests(
  items: readonly CheatSheetRequestItem[],
  env: NodeJS.ProcessEnv,
): Promise<ResendOutcome[]> {
  const config = resendConfig(env);
  // Errors only, as JSON on stderr would be; the report says what happened to each request.
  const logger = new Logger({ serviceName: 'leads-resend', logLevel: 'ERROR' });
  const deps = sendCheatSheetDependencies(config, { client: resendClientKey, network: resendClientKey }, logger);
  const outcomes: ResendOutcome[] = [];
  for (const item of items) {
    try {
      await sendCheatSheet({ name: item.name, email: item.email }, deps, { requestId: item.id });
      outcomes.push({ id: item.id, outcome: 'sent' });
    } catch (error) {
      if (error instanceof RequestNotClaimableError) outcomes.push({ id: item.id, outcome: 'already-claimed' });
      else outcomes.push({ id: item.id, outcome: 'refused', code: failureKinds[failureKindOf(error)].code });
    }
  }
  return outcomes;
}
