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
 * Nor is a request whose mailbox (any `+tag` or Gmail-dot spelling) was sent to, or may have been,
 * through a later request: the send of that one marks the older ones superseded, but it reads the
 * eventually consistent e-mail index and may miss a request saved a moment before; this check
 * reads the whole table, long after, and marks what the send missed (`superseded_by`).
 *
 * The resend counts as one client of its own (`operator-resend`) under the client and network
 * hourly limits, so it cannot send faster than those allow; the address's daily cap and the
 * daily send budget hold as for any reader.
 */

import { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { claimableStatuses, deliveryStatusOf, isUnsent, mailedStatuses } from '../../core/data/delivery-status';
import { normalizedAddress } from '../../core/data/address-normalization';
import type { CheatSheetRequestItem } from '../../core/data/tables';
import { cheatSheetRequestsTable } from '../../lambdas/requests/cheat-sheet-requests';
import { readDeploymentSecret, readSendCheatSheetConfig } from '../../lambdas/runtime/config';
import { addressKeySource } from '../../lambdas/limits/address-key';
import { loadOriginSecret } from '../../lambdas/http/origin-secret';
import { secretsManager } from '../../lambdas/runtime/aws-clients';
import { deploymentSecretMissing } from './deployment-secret';
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

/** States in which a request's e-mail went out, or may have: a send after them could mail the reader twice. */
const maybeMailedStatuses: readonly string[] = [...mailedStatuses, 'sending', 'unknown'];

/**
 * Another request of the same mailbox whose send began at or after this one was saved and went
 * out (or may have): the reader has the sheet, or may. Undefined when there is none.
 */
export function laterSendOf(
  item: CheatSheetRequestItem,
  items: readonly CheatSheetRequestItem[],
): CheatSheetRequestItem | undefined {
  const mailbox = normalizedAddress(item.email);
  return items.find(
    (other) =>
      other.id !== item.id &&
      typeof other.email === 'string' &&
      normalizedAddress(other.email) === mailbox &&
      maybeMailedStatuses.includes(deliveryStatusOf(other)) &&
      (other.sending_at ?? other.sent_at ?? other.requested_at) >= item.requested_at,
  );
}

/**
 * Whether `resend` may send it: provably unsent (`requested` or `failed`), and its mailbox not sent
 * to (nor maybe sent to) through a later request. `items` is the whole table, as read.
 */
export function isResendable(item: CheatSheetRequestItem, items: readonly CheatSheetRequestItem[]): boolean {
  return claimableStatuses.includes(deliveryStatusOf(item)) && laterSendOf(item, items) === undefined;
}

/** One line per request: when, its state (and failure code), the address, the id, and why it is not resent. */
export function describeUnsent(item: CheatSheetRequestItem, items: readonly CheatSheetRequestItem[]): string {
  const status = deliveryStatusOf(item);
  const code = item.failure_code ? ` (${item.failure_code})` : '';
  const later = laterSendOf(item, items);
  const note = !claimableStatuses.includes(status)
    ? '  [not resent: its send may have reached SES]'
    : later
      ? `  [not resent: the mailbox was sent to through request ${later.id}]`
      : '';
  return `  ${item.requested_at}  ${status}${code}  ${item.email}  (id ${item.id})${note}`;
}

/**
 * Marks each unsent request whose mailbox a later request reached as superseded by that one (what
 * the later send missed on the lagging index), so the next `unsent` no longer lists it. Returns the
 * ids marked; a request claimed since is left alone.
 */
export async function markSupersededRequests(
  client: DynamoDBDocumentClient,
  tableName: string,
  unsent: readonly CheatSheetRequestItem[],
  items: readonly CheatSheetRequestItem[],
  at: Date,
): Promise<string[]> {
  const requests = cheatSheetRequestsTable(client, tableName);
  const marked: string[] = [];
  for (const item of unsent) {
    const later = laterSendOf(item, items);
    if (later === undefined || !mailedStatuses.includes(deliveryStatusOf(later))) continue;
    if (await requests.markSuperseded(item.id, later.id, at)) marked.push(item.id);
  }
  return marked;
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
  const config = readSendCheatSheetConfig({
    ...env,
    CLIENT_ADDRESS_SOURCE: 'source-ip',
    CLIENT_ADDRESS_KEY: resendClientKey,
  });
  // No hand-off to the send queue: each resend waits for its slot of SES's rate and reports what SES said.
  return { ...config, sendQueueUrl: undefined };
}

/** Sends each request again, one at a time; a refusal (a cap, the pause) is reported and the rest go on. */
export async function resendRequests(
  items: readonly CheatSheetRequestItem[],
  env: NodeJS.ProcessEnv,
): Promise<ResendOutcome[]> {
  const config = resendConfig(env);
  // Errors only, as JSON on stderr would be; the report says what happened to each request.
  const logger = new Logger({ serviceName: 'leads-resend', logLevel: 'ERROR' });
  // The address hashes' key is the deployment's (its daily caps and suppressions), not the resend's client key.
  const secret = readDeploymentSecret(env);
  if (!secret) throw new Error(`resend cannot check the daily caps and suppressions: ${deploymentSecretMissing}`);
  const addressKey = addressKeySource(secret, (arn) => loadOriginSecret(secretsManager, arn));
  const deps = sendCheatSheetDependencies(
    config,
    { client: resendClientKey, network: resendClientKey },
    addressKey,
    logger,
  );
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
