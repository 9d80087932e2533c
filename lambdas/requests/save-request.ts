/**
 * Saving a cheat-sheet request: one `requested` item per request, within the save limits. Knows
 * nothing of HTTP.
 *
 * A mailbox that bounced for good or complained (suppressions.ts) is refused first, before any
 * limit is counted: nothing is stored, so no request waits for a send that will never come.
 *
 * The client's hourly save limit, then its network's (an IPv4 /24, an IPv6 /48), each counted
 * atomically with the send limits' rolling counters (rolling-counter.ts) before the item is
 * written: past either, nothing is stored. A failed write gives both slots back. The canary's
 * request (core/data/canary-mark.ts) takes no slot: the caps are readers'.
 */

import type { Logger } from '@aws-lambda-powertools/logger';
import type { CheatSheetRequests } from './cheat-sheet-requests';
import { limitReached, ProductError } from '../runtime/errors';
import type { Suppressions } from '../mail/suppressions';
import { describeErrorForLog } from '../runtime/logger';
import type { CheatSheetRequest } from '../../core/api/request-schema';
import { clientHourlySaveCapSubject, networkHourlySaveCapSubject } from '../../core/data/tables';
import type { CounterEntry, RollingCounter } from '../limits/rolling-counter';

export interface SaveRequestDependencies {
  readonly requests: CheatSheetRequests;
  /** The mailboxes that bounced for good or complained. */
  readonly suppressions: Pick<Suppressions, 'isSuppressed'>;
  /** The per-client and per-network hourly save counters (one window, two subjects). */
  readonly hourlySaveCapCounter: RollingCounter;
  /** Keyed hashes of the client (IPv4 address, IPv6 /64) and of its wider network (client-address.ts). */
  readonly clientKey: string;
  readonly networkKey: string;
  readonly clientHourlySaveCap: number;
  readonly networkHourlySaveCap: number;
  readonly now: () => Date;
  readonly logger: Pick<Logger, 'warn'>;
  /**
   * The canary's request (its mark verified, core/data/canary-mark.ts): it takes no save slot, and
   * its item is the canary's (marked, expiring within a day).
   *
   * @default false
   */
  readonly canary?: boolean;
}

/**
 * With `submissionKey`, the request is stored under the key's id (cheat-sheet-requests.ts): a key
 * whose request exists already stores nothing more and answers with that request's id (its save
 * slots given back), or 422 when it was saved for another address.
 */
export async function saveRequest(
  request: CheatSheetRequest,
  deps: SaveRequestDependencies,
  submissionKey?: string,
): Promise<{ id: string }> {
  if (await deps.suppressions.isSuppressed(request.email)) {
    throw new ProductError('addressSuppressed', 'The mailbox bounced for good or complained before: not stored');
  }
  const at = deps.now();
  if (deps.canary) {
    const item = await deps.requests.create({ ...request, canary: true }, at, submissionKey);
    return { id: item.id };
  }
  const taken: CounterEntry[] = [];
  try {
    // Both caps' earlier buckets in one read; each count then only writes.
    await deps.hourlySaveCapCounter.prepare(
      [clientHourlySaveCapSubject(deps.clientKey), networkHourlySaveCapSubject(deps.networkKey)],
      at,
    );
    const client = await deps.hourlySaveCapCounter.count(
      clientHourlySaveCapSubject(deps.clientKey),
      at,
      deps.clientHourlySaveCap,
    );
    if (!client) throw limitReached('clientHourlySaveCapReached', deps.clientHourlySaveCap);
    taken.push(client);
    const network = await deps.hourlySaveCapCounter.count(
      networkHourlySaveCapSubject(deps.networkKey),
      at,
      deps.networkHourlySaveCap,
    );
    if (!network) throw limitReached('networkHourlySaveCapReached', deps.networkHourlySaveCap);
    taken.push(network);
    const item = await deps.requests.create(request, at, submissionKey);
    if (item.created === false) {
      if (item.email !== request.email) {
        throw new ProductError('idempotencyKeyReused', "The key's request was saved for another address");
      }
      // Nothing new was stored: the slots this call took go back (the catch below).
      throw new KeyRequestExists(item.id);
    }
    return { id: item.id };
  } catch (error) {
    for (const entry of taken.reverse()) {
      try {
        await deps.hourlySaveCapCounter.release(entry);
      } catch (releaseError) {
        deps.logger.warn('Save failed and its limit slot could not be given back', describeErrorForLog(releaseError));
      }
    }
    if (error instanceof KeyRequestExists) return { id: error.id };
    throw error;
  }
}

/** The key's request was stored before: carried out through the slots' release. */
class KeyRequestExists extends Error {
  constructor(readonly id: string) {
    super(`Request ${id} exists for this key`);
  }
}
