/** Saving a cheat-sheet request: one unsent item per request. Knows nothing of HTTP. */

import type { CheatSheetRequests } from '../shared/cheat-sheet-requests';
import type { CheatSheetRequest } from '../../core/api/request-schema';

export interface SaveRequestDependencies {
  readonly requests: CheatSheetRequests;
  readonly now: () => Date;
  /** Days until DynamoDB's TTL deletes the request; undefined keeps it. */
  readonly retentionDays?: number;
}

const daySeconds = 24 * 60 * 60;

/** The TTL value: epoch seconds, `days` after `from`. */
export function expiryAfter(from: Date, days: number): number {
  return Math.ceil(from.getTime() / 1000) + days * daySeconds;
}

export async function saveRequest(
  request: CheatSheetRequest,
  { requests, now, retentionDays }: SaveRequestDependencies,
): Promise<{ id: string }> {
  const requestedAt = now();
  const expiresAt = retentionDays === undefined ? undefined : expiryAfter(requestedAt, retentionDays);
  const item = await requests.create(request, requestedAt, { expiresAt });
  return { id: item.id };
}
