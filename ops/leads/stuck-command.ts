/**
 * `npm run leads -- stuck list [--older-than AGE]` and
 * `npm run leads -- stuck clear (<id>… | --older-than AGE) --as unknown|failed [--yes]`: the requests
 * stuck `sending` for a day or more, and the operator's decision on them (stuck-requests.ts).
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readAllRequests } from './export-leads';
import { confirmed, type LeadsCommandIo } from './leads-io';
import type { LeadsTables } from './leads-tables';
import {
  clearedStatuses,
  clearStuckRequests,
  describeStuck,
  parseAge,
  stuckOf,
  type ClearedStatus,
} from './stuck-requests';

export interface StuckOptions {
  readonly action: 'list' | 'clear';
  /** Ids to clear; empty: every request stuck for `olderThanMs`. */
  readonly ids: readonly string[];
  readonly olderThanMs?: number;
  readonly as?: ClearedStatus;
  readonly yes: boolean;
}

/** The options of `stuck`, from its positionals (list|clear, ids) and flags; a string: what is wrong. */
export function parseStuckOptions(
  rest: readonly string[],
  flags: { readonly olderThan?: string; readonly as?: string; readonly yes: boolean },
): StuckOptions | string {
  const [action, ...ids] = rest;
  const olderThanMs = flags.olderThan === undefined ? undefined : parseAge(flags.olderThan);
  if ((action !== 'list' && action !== 'clear') || (flags.olderThan !== undefined && olderThanMs === undefined))
    return 'stuck takes list or clear, and --older-than a whole number of hours or days (36h, 2d).';
  if (action === 'list' && (ids.length > 0 || flags.as !== undefined || flags.yes))
    return 'stuck list only reads: no id, no --as, no --yes.';
  const as = clearedStatuses.find((status) => status === flags.as);
  if (action === 'clear' && (as === undefined || (ids.length === 0) === (flags.olderThan === undefined)))
    return 'stuck clear takes --as unknown or --as failed, and either ids or --older-than AGE.';
  return { action, ids, olderThanMs, as, yes: flags.yes };
}

export async function runStuck(
  client: DynamoDBDocumentClient,
  tables: LeadsTables,
  options: StuckOptions,
  io: LeadsCommandIo,
  /** The client the clear writes with (with --stack, as the send function's role). */
  writer: () => Promise<DynamoDBDocumentClient>,
): Promise<number> {
  const now = (io.now ?? (() => new Date()))();
  const items = await readAllRequests(client, tables.requests, { pageSize: io.pageSize });
  const stuck = stuckOf(items, now, options.olderThanMs);
  if (options.action === 'list') {
    io.stdout(
      stuck.length === 0
        ? 'No request is stuck sending for a day or more.'
        : [`${stuck.length} request(s) stuck sending for a day or more:`, ...stuck.map(describeStuck)].join('\n'),
    );
    return 0;
  }
  const chosen = options.ids.length === 0 ? stuck : stuck.filter((item) => options.ids.includes(item.id));
  const notStuck = options.ids.filter((id) => !chosen.some((item) => item.id === id));
  for (const id of notStuck) io.stderr(`  ${id}: not a request stuck sending for a day or more: left as it is.`);
  if (chosen.length === 0) {
    io.stdout('Cleared 0 requests: none is stuck sending for a day or more.');
    return notStuck.length === 0 ? 0 : 1;
  }
  io.stdout([`${chosen.length} request(s) to mark ${options.as}:`, ...chosen.map(describeStuck)].join('\n'));
  if (!options.yes && !(await confirmed(io, `Mark these ${chosen.length} request(s) ${options.as}? [y/N] `))) {
    io.stderr('Nothing changed.');
    return 1;
  }
  const cleared = await clearStuckRequests(await writer(), tables.requests, chosen, options.as!, now);
  const lines = chosen.map(
    (item) => `  ${item.id}: ${cleared.includes(item.id) ? options.as : 'left (a send took it meanwhile)'}`,
  );
  const next = options.as === 'failed' ? ' `resend` may now send them.' : ' They are never resent.';
  io.stdout([`Marked ${cleared.length} request(s) ${options.as}.${next}`, ...lines].join('\n'));
  return notStuck.length === 0 ? 0 : 1;
}
