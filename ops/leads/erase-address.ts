/**
 * Everything stored about one mailbox: its requests under every spelling that reaches it (the
 * address itself, its `+tag` variants and, at Gmail, its dotted variants: core/data/
 * address-normalization.ts), their send counters in the limit counters table (keyed by an address's
 * SHA-256), and those spellings on the SES account's suppression list. `findAddressItems` only
 * reads, so the tool can show what it will remove before it removes anything.
 *
 * The requests are found by a consistent Scan compared in code, not through the e-mail index:
 * the index is keyed on the address as typed, so it cannot find `v+1@…` from `v@…`, and no
 * DynamoDB condition can drop a tag or ignore dots. The table holds one small item per request
 * (a few thousand at most), so reading it whole costs well under a second and a few cents'
 * fraction of read units; the author erases an address rarely.
 */

import { DeleteSuppressedDestinationCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { DeleteCommand, GetCommand, paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { addressDailyCapItemId } from '../../core/data/address-hash';
import { normalizedAddress } from '../../core/data/address-normalization';
import { partitionKey, limitCountersPartitionKey, type CheatSheetRequestItem } from '../../core/data/tables';
import type { LeadsTables } from './leads-tables';

export interface AddressItems {
  readonly email: string;
  /** Its requests, every variant of the address included, oldest first. */
  readonly requests: readonly CheatSheetRequestItem[];
  /** The ids of its send counters that exist: of the address, of its normalized form, of each variant stored. */
  readonly addressDailyCapItemIds: readonly string[];
}

export interface FindOptions {
  /** Items per Scan call, for tests. @default DynamoDB's own page */
  readonly pageSize?: number;
}

/** `email` as stored: trimmed and lower-cased (the request schema's rule). */
export async function findAddressItems(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  email: string,
  { pageSize }: FindOptions = {},
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

  // The cap's counter is keyed by the normalized address; one keyed by a spelling as typed
  // (written before the cap counted the normalized form) is removed too.
  const candidates = new Set([mailbox, email, ...requests.map((request) => request.email)].map(addressDailyCapItemId));
  const addressDailyCapItemIds: string[] = [];
  for (const id of candidates) {
    const { Item } = await client.send(
      new GetCommand({
        TableName: tables.limitCounters,
        Key: { [limitCountersPartitionKey]: id },
        ConsistentRead: true,
      }),
    );
    if (Item) addressDailyCapItemIds.push(id);
  }
  return { email, requests, addressDailyCapItemIds };
}

export function countOf(found: AddressItems): number {
  return found.requests.length + found.addressDailyCapItemIds.length;
}

/** Deletes what `findAddressItems` found; returns how many items it deleted. */
export async function eraseAddressItems(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  found: AddressItems,
): Promise<number> {
  for (const request of found.requests) {
    await client.send(new DeleteCommand({ TableName: tables.requests, Key: { [partitionKey]: request.id } }));
  }
  for (const id of found.addressDailyCapItemIds) {
    await client.send(new DeleteCommand({ TableName: tables.limitCounters, Key: { [limitCountersPartitionKey]: id } }));
  }
  return countOf(found);
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
  const failed: { email: string; reason: string }[] = [];
  for (const email of emails) {
    try {
      await ses.send(new DeleteSuppressedDestinationCommand({ EmailAddress: email }));
      removed.push(email);
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if ((error as Error).name === 'NotFoundException' || status === 404) continue;
      failed.push({ email, reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    }
  }
  return { removed, failed };
}
