/**
 * Everything stored about one mailbox: its requests under every spelling that reaches it (the
 * address itself, its `+tag` variants and, at Gmail, its dotted variants: core/data/
 * address-normalization.ts), their send counters in the limit counters table (keyed by an address's
 * keyed hash), the mailbox's suppression entry there (`suppressed#<hash>`), each under its keyed id
 * and its legacy plain SHA-256 one (written before the ids were keyed), the idempotency records of
 * its submissions on both routes (found from the key each request stores, `submission_key`), and
 * those spellings on the SES account's suppression list. `findAddressItems` only reads, so the
 * tool can show what it will remove before it removes anything; each removal reports what it
 * could not remove, and the command fails on it.
 *
 * The keyed ids need the deployment's secret (core/data/address-hash.ts): the caller passes where
 * it is read from. When it cannot be read, the legacy ids, the requests and the records are still
 * removed, and the keyed ones are reported as not looked for: a failure, never "nothing there".
 *
 * What it cannot reach: an idempotency record of a submission whose request was never stored (its
 * save and its send both failed: the record holds no address, only hashes, and lapses within a
 * day), the functions' logs (the e-mail's domain only, never the address), SES's own sending
 * records, and copies outside AWS (an exported CSV, the weekly digest in the author's mailbox).
 *
 * The requests are found by a consistent Scan compared in code, not through the e-mail index:
 * the index is keyed on the address as typed, so it cannot find `v+1@…` from `v@…`, and no
 * DynamoDB condition can drop a tag or ignore dots. The table holds one small item per request
 * (a few thousand at most), so reading it whole costs well under a second and a few cents'
 * fraction of read units; the author erases an address rarely.
 */

import { DeleteSuppressedDestinationCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { DeleteCommand, GetCommand, paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { addressDailyCapItemId, legacyAddressHash, type AddressHashKey } from '../../core/data/address-hash';
import { normalizedAddress } from '../../core/data/address-normalization';
import {
  idempotencyPartitionKey,
  partitionKey,
  limitCountersPartitionKey,
  type CheatSheetRequestItem,
} from '../../core/data/tables';
import { idempotencyRecordId, idempotencyScopes } from '../../lambdas/requests/idempotency';
import { legacySuppressionIdOf, suppressionIdOf } from '../../lambdas/mail/suppressions';
import type { AddressKeySource } from '../../lambdas/limits/address-key';
import type { LeadsTables } from './leads-tables';

export interface AddressItems {
  readonly email: string;
  /** Its requests, every variant of the address included, oldest first. */
  readonly requests: readonly CheatSheetRequestItem[];
  /** The ids of its send counters that exist: of the address, of its normalized form, of each variant stored. */
  readonly addressDailyCapItemIds: readonly string[];
  /** The mailbox's suppression entry, when it has one (one per mailbox, whatever the spelling). */
  readonly suppressionItemIds: readonly string[];
  /** Its submissions' idempotency records that exist, on either route. */
  readonly idempotencyRecordIds: readonly string[];
  /** Why the idempotency records were not looked for (no table named): reported as not removed. */
  readonly idempotencyNotChecked?: string;
  /** Why the keyed send counters and suppression entry were not looked for (no deployment secret): reported as not removed. */
  readonly keyedNotChecked?: string;
}

/** One item a removal could not remove, and why: the author removes it by hand or runs erase again. */
export interface FailedRemoval {
  readonly what: string;
  readonly reason: string;
}

/** What a removal step did: how many it removed, and what it could not. */
export interface RemovalReport {
  readonly removed: number;
  readonly failed: readonly FailedRemoval[];
}

const reasonOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
/** A wrapped failure's own cause (the origin secret's read wraps the SDK's), when there is one. */
const causeOf = (error: unknown) =>
  error instanceof Error && error.cause !== undefined ? `: ${reasonOf(error.cause)}` : '';

/** Whether each of `ids` exists in `table` (a consistent read each). */
async function existing(client: DynamoDBDocumentClient, table: string, key: string, ids: Iterable<string>) {
  const found: string[] = [];
  for (const id of ids) {
    const { Item } = await client.send(new GetCommand({ TableName: table, Key: { [key]: id }, ConsistentRead: true }));
    if (Item) found.push(id);
  }
  return found;
}

export interface FindOptions {
  /** Items per Scan call, for tests. @default DynamoDB's own page */
  readonly pageSize?: number;
  /**
   * The address hashes' key (from the deployment's secret).
   *
   * @default none: only the legacy ids are looked for, and the keyed ones are reported as not checked
   */
  readonly addressKey?: AddressKeySource;
  /** Why there is no `addressKey`, for the report. @default 'no deployment secret was given' */
  readonly addressKeyMissing?: string;
}

/** `email` as stored: trimmed and lower-cased (the request schema's rule). */
export async function findAddressItems(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  email: string,
  { pageSize, addressKey, addressKeyMissing = 'no deployment secret was given' }: FindOptions = {},
): Promise<AddressItems> {
  const mailbox = normalizedAddress(email);
  const requests: CheatSheetRequestItem[] = [];
  // Consistent: an item written a moment ago is found, which the eventually consistent index could miss.
  for await (const page of paginateScan({ client, pageSize }, { TableName: tables.requests, ConsistentRead: true })) {
    for (const item of (page.Items ?? []) as CheatSheetRequestItem[]) {
      if (typeof item.email === 'string' && normalizedAddress(item.email) === mailbox) requests.push(item);
    }
  }
  requests.sort((a, b) => a.requested_at.localeCompare(b.requested_at) || a.id.localeCompare(b.id));

  let key: AddressHashKey | undefined;
  let keyedNotChecked: string | undefined;
  try {
    key = addressKey ? await addressKey() : undefined;
    if (!key) keyedNotChecked = addressKeyMissing;
  } catch (error) {
    keyedNotChecked = `the deployment secret could not be read (${reasonOf(error)}${causeOf(error)})`;
  }
  // The cap's counter is keyed by the normalized address; one keyed by a spelling as typed
  // (written before the cap counted the normalized form) is removed too, as is one under a legacy id.
  const spellings = [mailbox, email, ...requests.map((request) => request.email)];
  const candidates = new Set([
    ...(key ? spellings.map((spelling) => addressDailyCapItemId(spelling, key)) : []),
    ...spellings.map(legacyAddressHash),
  ]);
  const addressDailyCapItemIds = await existing(client, tables.limitCounters, limitCountersPartitionKey, candidates);
  const suppressionItemIds = await existing(client, tables.limitCounters, limitCountersPartitionKey, [
    ...(key ? [suppressionIdOf(mailbox, key)] : []),
    legacySuppressionIdOf(mailbox),
  ]);

  // Each submission's records on both routes: the key is on its request.
  const keys = requests.flatMap((request) => (request.submission_key ? [request.submission_key] : []));
  const recordIds = keys.flatMap((key) => idempotencyScopes.map((scope) => idempotencyRecordId(scope, key)));
  const idempotencyRecordIds =
    tables.idempotency === undefined
      ? []
      : await existing(client, tables.idempotency, idempotencyPartitionKey, new Set(recordIds));
  return {
    email,
    requests,
    addressDailyCapItemIds,
    suppressionItemIds,
    idempotencyRecordIds,
    ...(tables.idempotency === undefined &&
      keys.length > 0 && {
        idempotencyNotChecked: 'the stack names no idempotency table (its IdempotencyTableName output)',
      }),
    ...(keyedNotChecked !== undefined && { keyedNotChecked }),
  };
}

export function countOf(found: AddressItems): number {
  return (
    found.requests.length +
    found.addressDailyCapItemIds.length +
    found.suppressionItemIds.length +
    found.idempotencyRecordIds.length
  );
}

/**
 * Deletes what `findAddressItems` found, each item on its own: one that cannot be deleted is
 * reported with its reason and the others are still deleted.
 */
export async function eraseAddressItems(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  found: AddressItems,
): Promise<RemovalReport> {
  const deletions = [
    ...found.requests.map((request) => ({
      what: `request ${request.id}`,
      table: tables.requests,
      key: { [partitionKey]: request.id },
    })),
    ...[...found.addressDailyCapItemIds, ...found.suppressionItemIds].map((id) => ({
      what: id.includes('#') ? `suppression entry ${id}` : `send counter ${id}`,
      table: tables.limitCounters,
      key: { [limitCountersPartitionKey]: id },
    })),
    ...found.idempotencyRecordIds.map((id) => ({
      what: `idempotency record ${id}`,
      table: tables.idempotency ?? '',
      key: { [idempotencyPartitionKey]: id },
    })),
  ];
  let removed = 0;
  const failed: FailedRemoval[] = [];
  for (const deletion of deletions) {
    try {
      await client.send(new DeleteCommand({ TableName: deletion.table, Key: deletion.key }));
      removed += 1;
    } catch (error) {
      failed.push({ what: deletion.what, reason: reasonOf(error) });
    }
  }
  if (found.idempotencyNotChecked !== undefined) {
    failed.push({ what: 'idempotency records', reason: found.idempotencyNotChecked });
  }
  if (found.keyedNotChecked !== undefined) {
    failed.push({ what: 'the send counters and suppression entry under keyed ids', reason: found.keyedNotChecked });
  }
  return { removed, failed };
}

/**
 * Every spelling of the mailbox SES may hold on the account's suppression list (a bounce or a
 * complaint puts the address there as SES received it): the address given, its normalized form,
 * and each variant the requests stored. Lower-case, once each.
 */
export function suppressionCandidates(found: AddressItems): string[] {
  const spellings = [found.email, normalizedAddress(found.email), ...found.requests.map((request) => request.email)];
  return [...new Set(spellings.filter((spelling) => typeof spelling === 'string').map((s) => s.toLowerCase()))];
}

export interface SuppressionRemoval {
  /** Spellings SES had on the list and removed. */
  readonly removed: readonly string[];
  /** Spellings SES did not have on the list (NotFoundException). */
  readonly absent: readonly string[];
  /** Spellings SES could not remove, with its reason: the operator removes them by hand. */
  readonly failed: readonly { readonly email: string; readonly reason: string }[];
}

/**
 * Removes each spelling from the account's SES suppression list (DeleteSuppressedDestination).
 * Not on the list (NotFoundException, HTTP 404) is what most addresses are, and is no failure.
 */
export async function removeFromSuppressionList(
  ses: SESv2Client,
  emails: readonly string[],
): Promise<SuppressionRemoval> {
  const removed: string[] = [];
  const absent: string[] = [];
  const failed: { email: string; reason: string }[] = [];
  for (const email of emails) {
    try {
      await ses.send(new DeleteSuppressedDestinationCommand({ EmailAddress: email }));
      removed.push(email);
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if ((error as Error).name === 'NotFoundException' || status === 404) absent.push(email);
      else failed.push({ email, reason: reasonOf(error) });
    }
  }
  return { removed, absent, failed };
}
