// Its own module, importing nothing: the function catalogue names the index without the tables' imports.
/**
 * The sparse index of unsent requests: an item carries `unsent_queue` (always `unsent`) only while
 * its delivery is `requested`, `sending` or `failed`; settling it `sent` or `unknown`, or an SES
 * event, removes the attribute and so the item from the index. The unsent check queries it every
 * 15 minutes: it reads the unsent requests only, so its cost grows with them, not with all the
 * leads (a Scan read every item). What it costs: the index's copy of each write of an unsent item,
 * its keys and four small attributes. One partition holds them all: a few writes a second at most,
 * far below a partition's 1,000. Items written before the index existed are not in it (the
 * operator's `npm run leads -- unsent` still lists them).
 */
export const unsentIndex = {
  name: 'unsent_queue-requested_at-index',
  partitionKey: 'unsent_queue',
  sortKey: 'requested_at',
  value: 'unsent',
  /** What the check reads besides the keys: enough to tell a fault from a refusal. */
  attributes: ['delivery_status', 'cheat_sheet_sent', 'failure_code', 'superseded_by'],
} as const;
