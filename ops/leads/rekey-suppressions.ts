/**
 * `npm run leads -- rekey [--yes] [--stack NAME]`: moves the suppression entries written before the
 * ids were keyed (`suppressed#<SHA-256>`, no `keying` attribute) to their keyed ids
 * (`suppressed#<HMAC>`, core/data/address-hash.ts), so no plain hash of an address is left for
 * anyone holding the address to match. A SHA-256 cannot be turned into an HMAC without the address:
 * each legacy entry is matched to a mailbox of the requests table (every stored address, normalized,
 * hashed as the legacy id was), written under its keyed id with its first reason and time, and the
 * legacy item deleted. An entry no stored request matches stays (the functions still refuse its
 * mailbox through the legacy id) and is counted in the report: it goes when its owner asks for
 * erasure, or by hand. Safe to run again: a moved entry is no longer legacy.
 *
 * Reads the counters' table with a consistent Scan filtered to legacy entries (a few, in a table of
 * counters that expire within a day) and the requests table with a consistent Scan, as erase does.
 */

import { DeleteCommand, paginateScan, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { normalizedAddress } from '../../core/data/address-normalization';
import { suppressionKeying, type CheatSheetRequestItem, type SuppressionItem } from '../../core/data/tables';
import { legacySuppressionIdOf, suppressionIdOf } from '../../lambdas/mail/suppressions';
import type { AddressKeySource } from '../../lambdas/limits/address-key';
import type { LeadsTables } from './leads-tables';

export interface RekeyReport {
  /** Legacy entries moved to their keyed id. */
  readonly moved: number;
  /** Legacy entries no stored request matches: left as they are. */
  readonly unmatched: number;
  /** Entries that could not be moved, and why. */
  readonly failed: readonly { readonly id: string; readonly reason: string }[];
}

const reasonOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** The suppression entries without `keying`: written under a plain SHA-256 id. */
export async function legacySuppressions(
  client: DynamoDBDocumentClient,
  table: string,
  pageSize?: number,
): Promise<SuppressionItem[]> {
  const found: SuppressionItem[] = [];
  for await (const page of paginateScan(
    { client, pageSize },
    {
      TableName: table,
      ConsistentRead: true,
      FilterExpression: 'begins_with(#id, :suppressed) AND attribute_not_exists(#keying)',
      ExpressionAttributeNames: { '#id': 'id', '#keying': 'keying' },
      ExpressionAttributeValues: { ':suppressed': 'suppressed#' },
    },
  )) {
    found.push(...((page.Items ?? []) as SuppressionItem[]));
  }
  return found;
}

export async function rekeySuppressions(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  addressKey: AddressKeySource,
  { pageSize }: { readonly pageSize?: number } = {},
): Promise<RekeyReport> {
  const legacy = await legacySuppressions(client, tables.limitCounters, pageSize);
  if (legacy.length === 0) return { moved: 0, unmatched: 0, failed: [] };
  const key = await addressKey();
  // Every mailbox the requests table knows, by the legacy id its entry would have.
  const mailboxes = new Map<string, string>();
  for await (const page of paginateScan({ client, pageSize }, { TableName: tables.requests, ConsistentRead: true })) {
    for (const item of (page.Items ?? []) as CheatSheetRequestItem[]) {
      if (typeof item.email !== 'string') continue;
      const mailbox = normalizedAddress(item.email);
      mailboxes.set(legacySuppressionIdOf(mailbox), mailbox);
    }
  }
  let moved = 0;
  let unmatched = 0;
  const failed: { id: string; reason: string }[] = [];
  for (const entry of legacy) {
    const mailbox = mailboxes.get(entry.id);
    if (mailbox === undefined) {
      unmatched += 1;
      continue;
    }
    try {
      // The keyed entry first (keeping an earlier keyed one's reason and time), then the legacy one goes.
      await client.send(
        new UpdateCommand({
          TableName: tables.limitCounters,
          Key: { id: suppressionIdOf(mailbox, key) },
          UpdateExpression:
            'SET #reason = if_not_exists(#reason, :reason), #at = if_not_exists(#at, :at), #keying = :keying',
          ExpressionAttributeNames: { '#reason': 'reason', '#at': 'suppressed_at', '#keying': 'keying' },
          ExpressionAttributeValues: {
            ':reason': entry.reason,
            ':at': entry.suppressed_at,
            ':keying': suppressionKeying,
          },
        }),
      );
      await client.send(new DeleteCommand({ TableName: tables.limitCounters, Key: { id: entry.id } }));
      moved += 1;
    } catch (error) {
      failed.push({ id: entry.id, reason: reasonOf(error) });
    }
  }
  return { moved, unmatched, failed };
}
