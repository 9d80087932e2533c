/** Saving a cheat-sheet request: one unsent item per request. Knows nothing of HTTP. */

import type { CheatSheetRequests } from '../shared/cheat-sheet-requests';
import type { CheatSheetRequest } from '../../core/api/request-schema';

export interface SaveRequestDependencies {
  readonly requests: CheatSheetRequests;
  readonly now: () => Date;
}

export async function saveRequest(
  request: CheatSheetRequest,
  { requests, now }: SaveRequestDependencies,
): Promise<{ id: string }> {
  const item = await requests.create(request, now());
  return { id: item.id };
}
