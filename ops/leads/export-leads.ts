/**
 * Reads every reader's request: a paginated Scan (the author's occasional export reads the whole
 * table anyway; no index orders every item), then sorted newest first in memory. The canary's
 * items (core/data/canary-mark.ts) are left out: no export, mail, unsent list or resend holds one.
 */

import { paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CheatSheetRequestItem } from '../../core/data/tables';
import { newestFirst } from '../../core/data/leads-csv';
import { canaryItemAttribute } from '../../core/data/canary-mark';

export interface ScanOptions {
  /** Items per Scan call. @default DynamoDB's own page (up to 1 MB) */
  readonly pageSize?: number;
  /** Called after each page with the number of items read so far. */
  readonly onPage?: (itemsSoFar: number) => void;
}

export async function readAllRequests(
  client: DynamoDBDocumentClient,
  tableName: string,
  { pageSize, onPage }: ScanOptions = {},
): Promise<CheatSheetRequestItem[]> {
  const items: CheatSheetRequestItem[] = [];
  for await (const page of paginateScan({ client, pageSize }, { TableName: tableName })) {
    items.push(...((page.Items ?? []) as CheatSheetRequestItem[]).filter((item) => item[canaryItemAttribute] !== true));
    onPage?.(items.length);
  }
  return newestFirst(items);
}
