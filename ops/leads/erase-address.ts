/**
 * Everything stored about one address: its requests (found through the e-mail index) and its
 * send counter in the quota table (keyed by the address's SHA-256). `findAddressItems` only
 * reads, so the tool can show what it will remove before it removes anything.
 */

import { DeleteCommand, GetCommand, paginateQuery, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sendQuotaId } from '../../core/data/address-hash';
import { emailIndex, partitionKey, sendQuotaPartitionKey, type CheatSheetRequestItem } from '../../core/data/tables';
import type { LeadsTables } from './leads-tables';

export interface AddressItems {
  readonly email: string;
  /** Its requests, oldest first. */
  readonly requests: readonly CheatSheetRequestItem[];
  /** The id of its send counter, when it has one. */
  readonly sendQuotaId: string | null;
}

/** `email` as stored: trimmed and lower-cased (the request schema's rule). */
export async function findAddressItems(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  email: string,
): Promise<AddressItems> {
  const requests: CheatSheetRequestItem[] = [];
  const pages = paginateQuery(
    { client },
    {
      TableName: tables.requests,
      IndexName: emailIndex.name,
      KeyConditionExpression: '#email = :email',
      ExpressionAttributeNames: { '#email': emailIndex.partitionKey },
      ExpressionAttributeValues: { ':email': email },
    },
  );
  for await (const page of pages) requests.push(...((page.Items ?? []) as CheatSheetRequestItem[]));

  const quotaId = sendQuotaId(email);
  const { Item } = await client.send(
    new GetCommand({ TableName: tables.sendQuotas, Key: { [sendQuotaPartitionKey]: quotaId }, ConsistentRead: true }),
  );
  return { email, requests, sendQuotaId: Item ? quotaId : null };
}

export function countOf(found: AddressItems): number {
  return found.requests.length + (found.sendQuotaId === null ? 0 : 1);
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
  if (found.sendQuotaId !== null) {
    await client.send(
      new DeleteCommand({ TableName: tables.sendQuotas, Key: { [sendQuotaPartitionKey]: found.sendQuotaId } }),
    );
  }
  return countOf(found);
}
