/**
 * The mailboxes that are not mailed again: one item per mailbox that bounced for good or
 * complained, in the counters' table, keyed `suppressed#<SHA-256 of the normalized address>`
 * (core/data/tables.ts): every `+tag` and Gmail-dot spelling finds the same item, and no address
 * is stored. The SES events function writes it; the save and send steps read it, before anything
 * is stored, claimed or sent.
 *
 * Why an item of our own besides SES's suppression list (the configuration set's): SES accepts a
 * message to a suppressed address and drops it, so the send would be "sent" and count towards
 * the limits; and SES's list knows the exact address, not the mailbox.
 */

import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { addressDailyCapItemId } from '../../core/data/address-hash';
import { normalizedAddress } from '../../core/data/address-normalization';
import { suppressionId, type SuppressionItem } from '../../core/data/tables';
import { ProductError } from '../runtime/errors';

export interface Suppressions {
  /** Whether the address's mailbox is suppressed. */
  isSuppressed(email: string): Promise<boolean>;
  /** Suppresses the address's mailbox; suppressing it again keeps the first reason and time. */
  suppress(email: string, reason: SuppressionItem['reason'], at: Date): Promise<void>;
}

/** The item's id for an address: any spelling of one mailbox gives the same. */
export function suppressionIdOf(email: string): string {
  return suppressionId(addressDailyCapItemId(normalizedAddress(email)));
}

/** The suppression list, kept in the limit counters table (`tableName`): it has no table of its own. */
export function suppressionList(client: DynamoDBDocumentClient, tableName: string): Suppressions {
  return {
    async isSuppressed(email) {
      try {
        const { Item } = await client.send(
          new GetCommand({ TableName: tableName, Key: { id: suppressionIdOf(email) }, ProjectionExpression: 'id' }),
        );
        return Item !== undefined;
      } catch (error) {
        throw new ProductError('storageUnavailable', 'DynamoDB GetItem failed', { cause: error });
      }
    },

    async suppress(email, reason, at) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id: suppressionIdOf(email) },
            // if_not_exists: a second bounce or a complaint after a bounce keeps the first record.
            UpdateExpression: 'SET #reason = if_not_exists(#reason, :reason), #at = if_not_exists(#at, :at)',
            ExpressionAttributeNames: { '#reason': 'reason', '#at': 'suppressed_at' },
            ExpressionAttributeValues: { ':reason': reason, ':at': at.toISOString() },
          }),
        );
      } catch (error) {
        throw new ProductError('storageUnavailable', 'DynamoDB UpdateItem failed', { cause: error });
      }
    },
  };
}
