/**
 * The mailboxes that are not mailed again: one item per mailbox that bounced for good or
 * complained, in the counters' table, keyed `suppressed#<HMAC-SHA-256 of the normalized address>`
 * under the deployment's secret (core/data/tables.ts, core/data/address-hash.ts): every `+tag` and
 * Gmail-dot spelling finds the same item, no address is stored, and no one without the secret can
 * tell whether an address they hold is there. The SES events function writes it; the save and send
 * steps read it, before anything is stored, claimed or sent.
 *
 * Transition: entries written before the ids were keyed are `suppressed#<SHA-256>` and have no
 * expiry, so the check reads that legacy id too (in the same BatchGetItem) until every
 * deployment has moved them with `npm run leads -- rekey` (docs/operate.md, 'Keyed address
 * hashes'). Nothing writes a legacy id any more.
 *
 * Why an item of our own besides SES's suppression list (the configuration set's): SES accepts a
 * message to a suppressed address and drops it, so the send would be "sent" and count towards
 * the limits; and SES's list knows the exact address, not the mailbox.
 */

import { BatchGetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { addressHash, legacyAddressHash, type AddressHashKey } from '../../core/data/address-hash';
import { normalizedAddress } from '../../core/data/address-normalization';
import { suppressionId, suppressionKeying, type SuppressionItem } from '../../core/data/tables';
import type { AddressKeySource } from '../limits/address-key';
import { ProductError } from '../runtime/errors';

/** BatchGetItem calls one check may make while DynamoDB leaves keys unprocessed. */
const maxBatchRounds = 3;

export interface Suppressions {
  /** Whether the address's mailbox is suppressed (under its keyed id, or its legacy one). */
  isSuppressed(email: string): Promise<boolean>;
  /** Suppresses the address's mailbox; suppressing it again keeps the first reason and time. */
  suppress(email: string, reason: SuppressionItem['reason'], at: Date): Promise<void>;
}

/** The item's id for an address: any spelling of one mailbox gives the same. */
export function suppressionIdOf(email: string, key: AddressHashKey): string {
  return suppressionId(addressHash(normalizedAddress(email), key));
}

/** The id the mailbox's entry had before the ids were keyed (plain SHA-256): read and erased, never written. */
export function legacySuppressionIdOf(email: string): string {
  return suppressionId(legacyAddressHash(normalizedAddress(email)));
}

/** The suppression list, kept in the limit counters table (`tableName`): it has no table of its own. */
export function suppressionList(
  client: DynamoDBDocumentClient,
  tableName: string,
  addressKey: AddressKeySource,
): Suppressions {
  return {
    async isSuppressed(email) {
      const key = await addressKey();
      // Both ids in one BatchGetItem (one request, one read unit): keys DynamoDB left unprocessed
      // (throttled) are asked again, twice at most, then the check fails rather than guess.
      let keys: Record<string, unknown>[] = [{ id: suppressionIdOf(email, key) }, { id: legacySuppressionIdOf(email) }];
      try {
        for (let round = 1; keys.length > 0; round += 1) {
          if (round > maxBatchRounds) throw new Error(`BatchGetItem left ${keys.length} key(s) unprocessed`);
          const { Responses, UnprocessedKeys } = await client.send(
            new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ProjectionExpression: 'id' } } }),
          );
          if ((Responses?.[tableName] ?? []).length > 0) return true;
          keys = UnprocessedKeys?.[tableName]?.Keys ?? [];
        }
        return false;
      } catch (error) {
        throw new ProductError('storageUnavailable', 'DynamoDB BatchGetItem failed', { cause: error });
      }
    },

    async suppress(email, reason, at) {
      const key = await addressKey();
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id: suppressionIdOf(email, key) },
            // if_not_exists: a second bounce or a complaint after a bounce keeps the first record.
            UpdateExpression:
              'SET #reason = if_not_exists(#reason, :reason), #at = if_not_exists(#at, :at), #keying = :keying',
            ExpressionAttributeNames: { '#reason': 'reason', '#at': 'suppressed_at', '#keying': 'keying' },
            ExpressionAttributeValues: { ':reason': reason, ':at': at.toISOString(), ':keying': suppressionKeying },
          }),
        );
      } catch (error) {
        throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem failed', { cause: error });
      }
    },
  };
}
